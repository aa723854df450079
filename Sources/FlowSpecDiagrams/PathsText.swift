import FlowSpecLanguage

/// `flowspec paths` as text: one numbered block per path, each edge with its guard and `file:line`.
package enum PathsText {
    package static func render(_ report: PathReport, flow: CompiledFlow) -> String {
        var out =
            "flow \(flow.name) (\(flow.flow.file)): \(report.paths.count) path\(report.paths.count == 1 ? "" : "s")\n"
        for (offset, path) in report.paths.enumerated() {
            out += "\n" + block(number: offset + 1, path, flow: flow)
        }
        if !report.unreachableStates.isEmpty {
            out += "\nunreachable states (no path from `\(flow.startName)`):\n"
            for name in report.unreachableStates {
                out += "  \(name)" + (flow.state(named: name).map { "  \(place($0.location))" } ?? "") + "\n"
            }
        }
        if !report.deadEndEdges.isEmpty {
            out += "\nedges after which no end state can be reached:\n"
            for edge in report.deadEndEdges {
                out += "  \(edge.state) #\(edge.index) \(arrow(edge)) \(edge.target)  \(place(edge.location))\n"
            }
        }
        return out
    }

    /// `1. to end `ok` (success) — 3 states`, the state chain, then one line per state and edge.
    static func block(number: Int, _ path: FlowPath, flow: CompiledFlow) -> String {
        let heading = title(path, ending: flow.state(named: path.last)?.ending)
        var out = "\(number). \(heading) — \(path.states.count) state\(path.states.count == 1 ? "" : "s")\n"
        out += "   " + path.states.joined(separator: " → ") + "\n"
        for (i, state) in path.states.enumerated() {
            out += "   \(state) [\(flow.state(named: state)?.summary.line ?? "?")]\n"
            if i < path.edges.count {
                let edge = path.edges[i]
                out += "     \(arrow(edge))  \(place(edge.location))\n"
            }
        }
        let inputs = path.inputs(in: flow)
        out += "   inputs: " + (inputs.isEmpty ? "none" : inputs.joined(separator: ", ")) + "\n"
        return out
    }

    /// What the path is for: `to end `ok` (success)` or `through `verify` #2 (else), then to end `rejected` (failure)`.
    /// `ending` is the last state's, nil when it is not an end state.
    package static func title(_ path: FlowPath, ending end: (outcome: String, success: Bool)?) -> String {
        let ending = "to end `\(path.last)`" + (end.map { " (\($0.success ? "success" : "failure"))" } ?? "")
        switch path.purpose {
        case .end: return ending
        case .edge(let edge):
            let label = edge.label.isEmpty ? "" : " (\(edge.label))"
            return "through `\(edge.state)` #\(edge.index)\(label) → `\(edge.target)`, then \(ending)"
        }
    }

    static func arrow(_ edge: Edge) -> String {
        edge.label.isEmpty ? "-->" : "--\(edge.label)-->"
    }

    static func place(_ location: SourceLocation) -> String { "\(location.file):\(location.line)" }
}
