import FlowSpecLanguage

/// A flow as Graphviz DOT (`flowspec graph FLOW --format dot | dot -Tsvg > flow.svg`).
/// Same content and order as `MermaidDiagram`: a start point, states in file order with a shape per kind,
/// edges in index order labelled with their guards; end states are double circles filled by success.
package enum DOTDiagram {
    package static func render(_ flow: CompiledFlow, highlight: RunHighlight = .none) -> String {
        let nodes = flow.diagramNodes
        let start = startID(avoiding: Set(flow.states.map(\.name)))
        var lines = [
            "// flow \(DiagramText.oneLine(flow.name)), drawn by flowspec graph",
            "digraph \(quote(flow.name)) {",
            "  rankdir=TB;",
            "  node [fontname=\"Helvetica\", fontsize=11, style=filled];",
            "  edge [fontname=\"Helvetica\", fontsize=10];",
            "  \(quote(start)) [shape=point, width=0.2, fillcolor=\"\(StatePalette.start)\", color=\"\(StatePalette.start)\", label=\"\"];",
        ]
        for node in nodes {
            var attributes = [
                "label=\(quote(node.lines.joined(separator: "\n")))",
                "shape=\(shape(node.kind))",
            ]
            let style = StatePalette(node)
            attributes.append("fillcolor=\"\(style.fill)\"")
            attributes.append("fontcolor=\"\(style.text)\"")
            if highlight.visitedStates.contains(node.name) {
                attributes += ["color=\"\(highlightColor)\"", "penwidth=3"]
            } else {
                attributes.append("color=\"\(style.stroke)\"")
            }
            if node.kind == .call { attributes.append("peripheries=2") }
            lines.append("  \(quote(node.name)) [\(attributes.joined(separator: ", "))];")
        }
        lines.append(
            "  \(quote(start)) -> \(quote(flow.startName))\(highlight.tookStart(of: flow) ? " [\(takenStyle)]" : "");")
        for edge in flow.allEdges {
            let taken = highlight.count(edge)
            var attributes: [String] = []
            let label = DiagramText.edgeLabel(edge, taken: taken)
            if !label.isEmpty { attributes.append("label=\(quote(label))") }
            if edge.kind == .unreachable || edge.kind == .invalidInput { attributes.append("style=dashed") }
            if taken > 0 { attributes.append(takenStyle) }
            let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
            lines.append("  \(quote(edge.state)) -> \(quote(edge.target))\(suffix);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT double-quoted string. Backslashes are doubled so `\N`, `\G` or `\l` in a guard stay text rather
    /// than Graphviz escapes; a line break becomes `\n`, Graphviz's centred line break.
    package static func quote(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": break
            default: out.append(character)
            }
        }
        return out + "\""
    }

    static let highlightColor = StatePalette.traced
    static let takenStyle = "color=\"\(highlightColor)\", fontcolor=\"\(highlightColor)\", penwidth=3"

    static func shape(_ kind: DiagramNode.Kind) -> String {
        switch kind {
        case .request: "box"
        case .input: "parallelogram"
        case .choice: "diamond"
        case .call: "box"
        case .wait: "hexagon"
        case .end: "doublecircle"
        }
    }

    /// `__start`, lengthened in the unlikely case a state already has that name.
    private static func startID(avoiding names: Set<String>) -> String {
        var id = "__start"
        while names.contains(id) { id += "_" }
        return id
    }
}
