import FlowSpecDiagrams
import FlowSpecLanguage

/// Every flow a report's runs went through, laid out once and defined once in the page as an SVG symbol; each
/// run draws only its path over it. 288 scenarios of a handful of flows no longer repeat the same diagrams.
struct HTMLDiagrams {
    private var drawings: [String: (id: String, drawing: SVGDiagram.Drawing)] = [:]
    /// Flow names in first-use order, so the page is the same on every run.
    private var order: [String] = []

    init(_ record: RunRecord) {
        for report in record.reports {
            for run in report.runs where drawings[run.flowName] == nil {
                drawings[run.flowName] = ("fs-flow-\(order.count + 1)", SVGDiagram.Drawing(run.flow))
                order.append(run.flowName)
            }
        }
    }

    /// The hidden `<svg>` that defines every symbol. Sized zero rather than `display:none`, which some
    /// browsers apply to the symbols' uses too.
    var definitions: String {
        guard !order.isEmpty else { return "" }
        var html =
            "<svg class=\"fs-symbols\" width=\"0\" height=\"0\" aria-hidden=\"true\" style=\"position:absolute\"><defs>\n"
        for name in order { if let entry = drawings[name] { html += entry.drawing.symbol(id: entry.id) } }
        return html + "</defs></svg>\n"
    }

    /// One run's diagram: its path drawn over its flow's symbol.
    func diagram(of run: FlowRunTrace) -> String {
        // Every run's flow got a drawing in `init`.
        let entry = drawings[run.flowName]!
        return entry.drawing.overlay(highlight: RunHighlight(runs: [run]), symbolID: entry.id)
    }
}
