import FlowSpecLanguage

/// `flowspec paths --format json`: a stable, documented shape (docs/paths.md), keys sorted.
///
/// ```json
/// {"schema": "flowspec-paths", "version": 1, "flow": "…", "file": "…",
///  "paths": [{"number": 1, "ends": "ok", "outcome": "ok", "success": true, "covers": null,
///             "states": ["start", "…", "ok"], "inputs": ["email"],
///             "edges": [{"state": "start", "index": 0, "target": "…", "kind": "guarded", "label": "status == 200",
///                        "location": "flows/x.yaml:12"}]}],
///  "unreachableStates": [], "deadEndEdges": []}
/// ```
package enum PathsJSON {
    package static func value(_ report: PathReport, flow: CompiledFlow) -> JSONValue {
        let paths: [JSONValue] = report.paths.enumerated().map { offset, path in
            let ending = flow.state(named: path.last)?.ending
            return .object([
                "number": .number(Double(offset + 1)),
                "ends": .string(path.last),
                "outcome": ending.map { .string($0.outcome) } ?? .null,
                "success": ending.map { .bool($0.success) } ?? .null,
                "covers": path.coveredEdge.map(reference) ?? .null,
                "states": .array(path.states.map(JSONValue.string)),
                "inputs": .array(path.inputs(in: flow).map(JSONValue.string)),
                "edges": .array(path.edges.map(edge)),
            ])
        }
        return .object([
            "schema": .string("flowspec-paths"),
            "version": .number(1),
            "flow": .string(flow.name),
            "file": .string(flow.flow.file),
            "paths": .array(paths),
            "unreachableStates": .array(report.unreachableStates.map(JSONValue.string)),
            "deadEndEdges": .array(report.deadEndEdges.map(edge)),
        ])
    }

    package static func render(_ report: PathReport, flow: CompiledFlow) -> String {
        value(report, flow: flow).prettyJSON + "\n"
    }

    static func edge(_ e: Edge) -> JSONValue {
        .object([
            "state": .string(e.state),
            "index": .number(Double(e.index)),
            "target": .string(e.target),
            "kind": .string(e.kind.rawValue),
            "label": .string(e.label),
            "location": .string("\(e.location.file):\(e.location.line)"),
        ])
    }

    static func reference(_ e: Edge) -> JSONValue {
        .object(["state": .string(e.state), "index": .number(Double(e.index))])
    }
}
