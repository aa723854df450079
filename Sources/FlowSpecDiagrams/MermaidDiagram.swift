import FlowSpecLanguage

/// A flow as a Mermaid `flowchart TD` (GitHub renders it inline in a ```mermaid block).
///
/// Why a flowchart and not `stateDiagram-v2`: only flowcharts give each state kind its own shape, quote
/// labels (so guard text containing `:` or `"` stays text), and accept `linkStyle N` to colour the edges a
/// trace took. State diagrams have none of the three.
///
/// Layout of the output, stable for diffs: nodes in file order, then the start arrow and every edge (states in
/// file order, edges in index order — so link N of `linkStyle` is edge N−1 of `CompiledFlow.allEdges`), then styles.
package enum MermaidDiagram {
    package static func render(_ flow: CompiledFlow, highlight: RunHighlight = .none) -> String {
        let nodes = flow.diagramNodes
        let ids = DiagramIdentifiers(nodes.map(\.name))
        var lines = ["%% flow \(oneLineComment(flow.name)), drawn by flowspec graph", "flowchart TD"]

        lines.append("    \(startID)((\"start\"))")
        for node in nodes { lines.append("    " + ids[node.name] + shape(node)) }

        var takenLinks: [Int] = []
        if highlight.tookStart(of: flow) { takenLinks.append(0) }
        lines.append("    \(startID) --> \(ids[flow.startName])")
        for (offset, edge) in flow.allEdges.enumerated() {
            let taken = highlight.count(edge)
            if taken > 0 { takenLinks.append(offset + 1) }
            let label = DiagramText.edgeLabel(edge, taken: taken)
            // Dashed, as in DOT: the ways out when something went wrong (no response, an invalid answer).
            let line = edge.kind == .unreachable || edge.kind == .invalidInput ? "-.->" : "-->"
            let arrow = label.isEmpty ? line : "\(line)|\"\(escape(label))\"|"
            lines.append("    \(ids[edge.state]) \(arrow) \(ids[edge.target])")
        }

        lines.append("    classDef flowStart fill:\(StatePalette.start),stroke:\(StatePalette.start),color:#ffffff")
        lines.append("    class \(startID) flowStart")
        for style in StatePalette.allCases {
            let members = nodes.filter { StatePalette($0) == style }.map { ids[$0.name] }
            guard !members.isEmpty else { continue }
            lines.append("    classDef \(style.rawValue) fill:\(style.fill),stroke:\(style.stroke),color:\(style.text)")
            lines.append("    class \(members.joined(separator: ",")) \(style.rawValue)")
        }
        let visited = nodes.filter { highlight.visitedStates.contains($0.name) }.map { ids[$0.name] }
        if !visited.isEmpty {
            // Not `visited`: Mermaid's lexer reads a leading `v` as its "down" token.
            lines.append("    classDef traced stroke:\(StatePalette.traced),stroke-width:3px")
            lines.append("    class \(visited.joined(separator: ",")) traced")
        }
        if !takenLinks.isEmpty {
            lines.append(
                "    linkStyle \(takenLinks.map(String.init).joined(separator: ",")) stroke:\(StatePalette.traced),stroke-width:3px"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text made safe inside a quoted Mermaid label. Inside quotes only `"` ends the text, but the rendered
    /// label is HTML and `#…;` is Mermaid's entity syntax, so those characters become entity codes. Mermaid's
    /// statement punctuation (`:`, `;`, `|` which delimits edge labels, `{}`) is encoded too, so a label never
    /// depends on which lexer state reads it. A leading backtick would start a Markdown string.
    package static func escape(_ text: String) -> String {
        var out = ""
        for character in DiagramText.oneLine(text) {
            if let code = entityCodes[character] { out += "#\(code);" } else { out.append(character) }
        }
        return out
    }

    /// What `escape` writes between `#` and `;` for each character it encodes.
    private static let entityCodes: [Character: String] = [
        "\"": "quot", "#": "35", "&": "amp", "<": "lt", ">": "gt", "|": "124", ";": "59", ":": "58", "{": "123",
        "}": "125", "`": "96",
    ]

    /// The start marker's id; state ids all begin with `s_`, so it cannot clash.
    static let startID = "start"

    private static func shape(_ node: DiagramNode) -> String {
        let label = "\"" + node.lines.map(escape).joined(separator: "<br/>") + "\""
        switch node.kind {
        case .request: return "[\(label)]"
        case .input: return "[/\(label)/]"
        case .choice: return "{\(label)}"
        case .call: return "[[\(label)]]"
        case .wait: return "{{\(label)}}"
        case .end: return "([\(label)])"
        }
    }

    /// A `%%` comment ends at the line's end; keep a strange flow name on one line.
    private static func oneLineComment(_ text: String) -> String { DiagramText.oneLine(text) }
}
