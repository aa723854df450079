import FlowSpecLanguage
import Foundation

/// The flow runs recorded in a JSON report (`flowspec run --report json=FILE`, schema "flowspec-report",
/// version 1), read back as the `FlowRunTrace`s the run recorded (JSONReport writes them, next door), resolved
/// against the flows loaded now. Only which scenario, which flow, which states and edges are required; the run's id,
/// parent, outcome and false guards are read when present. Everything else in the report (exchanges, failures,
/// timings) is ignored, so it may grow without breaking this.
///
/// A report written for another version of a flow can name a state the loaded flow no longer has, or an edge past
/// its state's edges: such a visit cannot be placed, and is described in `unmatched` (the state left out, or the
/// visit kept without its edge) instead of failing the whole file. Runs of flows that are not loaded are left out.
package struct TraceFile: Sendable, Equatable {
    package struct Scenario: Sendable, Equatable {
        package var name: String
        package var repetition: Int?
        package var runs: [FlowRunTrace]
    }

    /// Why a file is not a report this version can read; `description` says what to do.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    package static let schema = "flowspec-report"
    package static let version = 1

    package var scenarios: [Scenario]
    /// By flow name: the visits of the report that the loaded flow cannot place, described, sorted.
    package var unmatched: [String: [String]]

    package init(scenarios: [Scenario], unmatched: [String: [String]] = [:]) {
        self.scenarios = scenarios
        self.unmatched = unmatched
    }

    /// Reads a report, resolving its runs against `flows` (the compiled flows by name), or says precisely which part
    /// of it does not follow the contract.
    package static func parse(_ data: Data, flows: [String: CompiledFlow]) -> Result<TraceFile, Problem> {
        guard let root = JSONValue.parse(data) else {
            return .failure(
                Problem(description: "not valid JSON; pass a report written by `flowspec run --report json=FILE`"))
        }
        guard root.objectValue != nil, root["schema"].stringValue == schema else {
            return .failure(
                Problem(
                    description:
                        "not a FlowSpec JSON report: expected \"schema\": \"\(schema)\"; pass a report written by `flowspec run --report json=FILE`"
                ))
        }
        guard root["version"].numberValue == Double(version) else {
            return .failure(
                Problem(
                    description:
                        "report version \(root["version"].compactJSON) is not supported: this flowspec reads version \(version); re-run the scenarios with this flowspec"
                ))
        }
        do {
            var resolver = Resolver(flows: flows)
            let scenarios = try list(root, "scenarios", at: "").enumerated().map {
                try scenario($0.offset, $0.element, &resolver)
            }
            return .success(TraceFile(scenarios: scenarios, unmatched: resolver.unmatched.mapValues { $0.sorted() }))
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(Problem(description: "\(error)"))
        }
    }

    /// Names of every scenario in the report, in report order without repeats (for "did you mean").
    package var scenarioNames: [String] {
        var seen = Set<String>()
        return scenarios.map(\.name).filter { seen.insert($0).inserted }
    }

    /// Every run of `flow` — top-level, sub-flow and refresh runs alike — in the scenarios named `scenario`
    /// (every repetition of it), or in all scenarios when nil.
    package func runs(of flow: String, scenario: String? = nil) -> [FlowRunTrace] {
        scenarios.filter { scenario == nil || $0.name == scenario }.flatMap(\.runs).filter { $0.flowName == flow }
    }

    // MARK: - Reading the contract's shape

    /// Names to indices, and what could not be placed.
    private struct Resolver {
        var flows: [String: CompiledFlow]
        var unmatched: [String: Set<String>] = [:]

        /// The visit at state index and edge number, or nil (noted) when the flow cannot place it.
        mutating func visit(_ state: String, edge: Int?, falseGuards: [Int], in flow: CompiledFlow) -> FlowRunTrace
            .Visit?
        {
            guard let index = flow.index(of: state) else {
                unmatched[flow.name, default: []].insert("state `\(state)` is not in the flow")
                return nil
            }
            guard let edge else { return FlowRunTrace.Visit(state: index, edge: nil, falseGuards: falseGuards) }
            guard flow.edge(of: index, number: edge) != nil else {
                unmatched[flow.name, default: []].insert(
                    "state `\(state)` has no edge \(edge) (it has \(flow.edges[index].count))")
                return FlowRunTrace.Visit(state: index, edge: nil, falseGuards: falseGuards)
            }
            return FlowRunTrace.Visit(state: index, edge: edge, falseGuards: falseGuards)
        }
    }

    private static func scenario(_ index: Int, _ value: JSONValue, _ resolver: inout Resolver) throws -> Scenario {
        let path = "scenarios[\(index)]"
        let repetition = value["repetition"]
        guard repetition.isNull || repetition.numberValue.map({ $0 == $0.rounded() }) == true else {
            throw mismatch("\(path).repetition", expected: "a whole number or null", found: repetition)
        }
        return Scenario(
            name: try string(value, "name", at: path),
            repetition: repetition.numberValue.map { Int($0) },
            runs: try list(value, "runs", at: path).enumerated().compactMap {
                try run($0.element, index: $0.offset, at: "\(path).runs[\($0.offset)]", &resolver)
            })
    }

    /// nil for a run of a flow that is not loaded (after checking its shape all the same).
    private static func run(_ value: JSONValue, index: Int, at path: String, _ resolver: inout Resolver) throws
        -> FlowRunTrace?
    {
        let id = try optionalIndex(value["id"], at: "\(path).id") ?? index
        let name = try string(value, "flow", at: path)
        let parent = try optionalIndex(value["parent"], at: "\(path).parent")
        let visits = try list(value, "visits", at: path).enumerated().map {
            try visit($0.element, at: "\(path).visits[\($0.offset)]")
        }
        guard let flow = resolver.flows[name] else { return nil }
        return FlowRunTrace(
            id: id, flow: flow, parent: parent,
            visits: visits.compactMap {
                resolver.visit($0.state, edge: $0.edge, falseGuards: $0.falseGuards, in: flow)
            },
            outcome: value["outcome"].stringValue,
            success: value["success"].boolValue ?? false)
    }

    private static func visit(_ value: JSONValue, at path: String) throws -> (
        state: String, edge: Int?, falseGuards: [Int]
    ) {
        let falseGuards = try (value["falseGuards"].arrayValue ?? []).enumerated().map { item in
            let expected = "a transition index (a whole number ≥ 0)"
            guard
                let index = try optionalIndex(
                    item.element, at: "\(path).falseGuards[\(item.offset)]", expected: expected)
            else {
                throw mismatch("\(path).falseGuards[\(item.offset)]", expected: expected, found: item.element)
            }
            return index
        }
        guard
            let edge = try optionalIndex(
                value["edge"], at: "\(path).edge", expected: "an edge index (a whole number ≥ 0) or null")
        else {
            return (try string(value, "state", at: path), nil, falseGuards)
        }
        return (try string(value, "state", at: path), edge, falseGuards)
    }

    /// A whole number ≥ 0, or nil for null or a missing field.
    private static func optionalIndex(
        _ value: JSONValue, at path: String, expected: String = "a whole number ≥ 0 or null"
    ) throws -> Int? {
        if value.isNull { return nil }
        guard let number = value.numberValue, number >= 0, number == number.rounded(), number < Double(Int32.max) else {
            throw mismatch(path, expected: expected, found: value)
        }
        return Int(number)
    }

    private static func string(_ object: JSONValue, _ key: String, at path: String) throws -> String {
        guard let text = try field(object, key, at: path).stringValue else {
            throw mismatch(join(path, key), expected: "a string", found: object[key])
        }
        return text
    }

    private static func list(_ object: JSONValue, _ key: String, at path: String) throws -> [JSONValue] {
        guard let items = try field(object, key, at: path).arrayValue else {
            throw mismatch(join(path, key), expected: "a list", found: object[key])
        }
        return items
    }

    private static func field(_ object: JSONValue, _ key: String, at path: String) throws -> JSONValue {
        guard let fields = object.objectValue else {
            throw mismatch(path.isEmpty ? "the report" : path, expected: "an object", found: object)
        }
        guard let value = fields[key] else {
            throw Problem(
                description: "report does not follow the flowspec-report contract: \(join(path, key)) is missing")
        }
        return value
    }

    private static func mismatch(_ path: String, expected: String, found: JSONValue) -> Problem {
        Problem(
            description:
                "report does not follow the flowspec-report contract: \(path) should be \(expected), found \(found.isNull ? "null" : found.typeName)"
        )
    }

    private static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
