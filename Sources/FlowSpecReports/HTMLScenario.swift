import FlowSpecLanguage
import FlowSpecScenarios

/// One scenario's section: a summary line (status, name, tags, file, duration) that opens onto why it
/// failed or was skipped, then every flow run it made.
struct HTMLScenario {
    let record: RunRecord
    let diagrams: HTMLDiagrams

    init(record: RunRecord, diagrams: HTMLDiagrams) {
        self.record = record
        self.diagrams = diagrams
    }

    func render(_ report: ScenarioReport, anchor: String) -> String {
        let status = report.status.rawValue
        var classes = ["scenario", "status-\(status)"]
        if report.infrastructureFailure { classes.append("infra") }
        let name = record.displayName(report)
        let search = ([name, report.file] + report.tags).joined(separator: " ").lowercased()
        // Failures open by default: they are what the reader came for.
        let open = report.status == .failed ? " open" : ""
        var html =
            "<details class=\"\(classes.joined(separator: " "))\" id=\"\(anchor)\" data-search=\"\(Markup.escape(search))\"\(open)>\n"
        html += "<summary>"
        html += "<span class=\"badge \(status)\">\(badge(report))</span> "
        html += "<span class=\"name\">\(Markup.escape(name))</span>"
        if !report.tags.isEmpty {
            html +=
                " <span class=\"tags\">"
                + report.tags.map { "<span class=\"tag\">\(Markup.escape($0))</span>" }.joined() + "</span>"
        }
        html += " <span class=\"file\">\(Markup.escape(report.file))</span>"
        html += " <span class=\"duration\">\(Markup.escape(HTML.duration(report.durationSeconds)))</span>"
        html += "</summary>\n<div class=\"scenario-body\">\n"
        html += problem(report)
        html += HTMLRuns(record: record, report: report, diagrams: diagrams).render()
        html += "</div>\n</details>\n"
        return html
    }

    private func badge(_ report: ScenarioReport) -> String {
        switch report.status {
        case .passed: "PASSED"
        case .skipped: "SKIPPED"
        case .failed: report.infrastructureFailure ? "INFRA" : "FAILED"
        }
    }

    /// Why it failed or was skipped. An infrastructure failure (no response from the backend) looks different
    /// from a broken promise: it says nothing about whether the backend keeps its promises.
    private func problem(_ report: ScenarioReport) -> String {
        switch report.status {
        case .passed:
            return ""
        case .skipped:
            let reason = report.skipReason ?? "no reason given"
            return "<div class=\"problem skipped\"><h3>Skipped</h3><p>\(Markup.escape(reason))</p></div>\n"
        case .failed:
            let (kind, title) =
                report.infrastructureFailure
                ? ("infra", "Infrastructure failure: the backend did not answer, so no promise was checked")
                : ("promise", "Failed: a promise this scenario checks does not hold")
            var html = "<div class=\"problem \(kind)\"><h3>\(title)</h3>\n"
            let failures = report.failures.isEmpty ? ["The scenario failed without an explanation."] : report.failures
            for failure in failures { html += "<pre class=\"failure\">\(Markup.escape(failure))</pre>\n" }
            return html + "</div>\n"
        }
    }
}
