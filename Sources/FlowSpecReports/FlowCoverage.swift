import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

/// Which states, transitions, guard outcomes and end states of each flow the scenarios exercised.
/// It is also the machine-readable coverage file (schema `flowspec-coverage`, version 1): counts, not flags,
/// so the files of several shards merge by adding them up.
package struct FlowCoverage: Codable, Sendable, Equatable {
    package static let schemaName = "flowspec-coverage"
    package static let schemaVersion = 1

    package var schema = FlowCoverage.schemaName
    package var version = FlowCoverage.schemaVersion
    /// Flows by name.
    package var flows: [FlowEntry]

    package struct FlowEntry: Codable, Sendable, Equatable {
        package var flow: String
        package var file: String
        package var states: [StateEntry]
        package var transitions: [TransitionEntry]
    }

    package struct StateEntry: Codable, Sendable, Equatable {
        package var name: String
        package var kind: String
        package var line: Int
        package var column: Int
        /// End states only.
        package var outcome: String?
        package var success: Bool?
        /// Times a run entered the state.
        package var hits: Int
    }

    package struct TransitionEntry: Codable, Sendable, Equatable {
        package var state: String
        /// The edge number within the state (see `Edge`).
        package var index: Int
        package var target: String
        package var kind: String
        package var label: String
        package var line: Int
        package var column: Int
        /// Times taken; for a guarded transition, also the times its guard was true.
        package var hits: Int
        /// Guarded transitions only: times the guard was evaluated false.
        package var guardFalse: Int?
    }

    package init(flows: [FlowEntry]) { self.flows = flows }

    /// Every flow in `specs`, counted over the runs in `reports`: by state index and edge number in each run's
    /// compiled flow, so nothing is looked up by name.
    package init(specs: SpecSet, reports: [ScenarioReport]) {
        /// Per flow: hits by state index; edge and false-guard hits by state index, then edge number.
        struct Counts {
            var states: [Int]
            var edges: [[Int]]
            var falseGuards: [[Int]]
            init(_ flow: CompiledFlow) {
                states = Array(repeating: 0, count: flow.states.count)
                // One counter per edge number: the compiled flow's target rows are sized by them already.
                edges = flow.targets.map { Array(repeating: 0, count: $0.count) }
                falseGuards = edges
            }
        }
        var counts: [String: Counts] = [:]
        for report in reports {
            for run in report.runs {
                // A run refers to the compiled flow it walked, which is the program's own: one of any other program
                // (never made by a scenario run of this one) cannot be placed, and is not counted.
                guard let compiled = specs.compiled[run.flowName], compiled === run.flow else { continue }
                var flow = counts[run.flowName] ?? Counts(compiled)
                for visit in run.visits {
                    flow.states[visit.state] += 1
                    if let edge = visit.edge { flow.edges[visit.state][edge] += 1 }
                    for index in visit.falseGuards { flow.falseGuards[visit.state][index] += 1 }
                }
                counts[run.flowName] = flow
            }
        }
        flows = specs.compiled.keys.sorted().map { name in
            let compiled = specs.compiled[name]!
            let flow = compiled.flow
            let hits = counts[name]
            return FlowEntry(
                flow: name, file: flow.file,
                states: compiled.states.enumerated().map { index, state in
                    StateEntry(
                        name: state.name, kind: state.kindName, line: state.location.line,
                        column: state.location.column,
                        outcome: state.ending?.outcome, success: state.ending?.success,
                        hits: hits?.states[index] ?? 0)
                },
                transitions: compiled.edges.enumerated().flatMap { stateIndex, edges in
                    edges.map { edge in
                        TransitionEntry(
                            state: edge.state, index: edge.index, target: edge.target, kind: edge.kind.rawValue,
                            label: edge.label, line: edge.location.line, column: edge.location.column,
                            hits: hits?.edges[stateIndex][edge.index] ?? 0,
                            guardFalse: edge.kind == .guarded ? (hits?.falseGuards[stateIndex][edge.index] ?? 0) : nil)
                    }
                })
        }
    }

    package init(_ record: RunRecord) { self.init(specs: record.specs, reports: record.reports) }

    /// Adds up the counts of several coverage files (shards). A flow or item present in only some files is kept.
    package static func merge(_ parts: [FlowCoverage]) -> FlowCoverage {
        var byFlow: [String: FlowEntry] = [:]
        for part in parts {
            for entry in part.flows {
                guard var merged = byFlow[entry.flow] else { byFlow[entry.flow] = entry; continue }
                for state in entry.states {
                    if let i = merged.states.firstIndex(where: { $0.name == state.name }) {
                        merged.states[i].hits += state.hits
                    } else {
                        merged.states.append(state)
                    }
                }
                for t in entry.transitions {
                    if let i = merged.transitions.firstIndex(where: { $0.state == t.state && $0.index == t.index }) {
                        merged.transitions[i].hits += t.hits
                        if let f = t.guardFalse {
                            merged.transitions[i].guardFalse = (merged.transitions[i].guardFalse ?? 0) + f
                        }
                    } else {
                        merged.transitions.append(t)
                    }
                }
                byFlow[entry.flow] = merged
            }
        }
        return FlowCoverage(flows: byFlow.keys.sorted().map { byFlow[$0]! })
    }

    /// Keeps only the flows whose names `include` accepts.
    package func filtered(_ include: (String) -> Bool) -> FlowCoverage {
        FlowCoverage(flows: flows.filter { include($0.flow) })
    }
}

/// Covered over total, with the percentage shown everywhere.
package struct CoverageRatio: Sendable, Equatable {
    package var covered: Int
    package var total: Int

    /// 100 when there is nothing to cover.
    package var percent: Double { total == 0 ? 100 : Double(covered) * 100 / Double(total) }

    package var text: String { "\(covered)/\(total)" }
    package var percentText: String {
        let p = percent
        // Never round up to 100: "100%" must mean everything.
        if p < 100, p > 99.9 { return "99.9%" }
        let text = String(format: "%.1f", p)
        return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + "%"
    }
}

extension FlowCoverage.FlowEntry {
    package var stateRatio: CoverageRatio {
        CoverageRatio(covered: states.filter { $0.hits > 0 }.count, total: states.count)
    }
    package var transitionRatio: CoverageRatio {
        CoverageRatio(covered: transitions.filter { $0.hits > 0 }.count, total: transitions.count)
    }
    /// Each guard counts twice: once for true, once for false.
    package var guardRatio: CoverageRatio {
        let guarded = transitions.filter { $0.guardFalse != nil }
        return CoverageRatio(
            covered: guarded.filter { $0.hits > 0 }.count + guarded.filter { ($0.guardFalse ?? 0) > 0 }.count,
            total: guarded.count * 2)
    }
    package var endRatio: CoverageRatio {
        let ends = states.filter { $0.outcome != nil }
        return CoverageRatio(covered: ends.filter { $0.hits > 0 }.count, total: ends.count)
    }
}

extension FlowCoverage {
    private func sum(_ ratio: (FlowEntry) -> CoverageRatio) -> CoverageRatio {
        flows.map(ratio).reduce(CoverageRatio(covered: 0, total: 0)) {
            CoverageRatio(covered: $0.covered + $1.covered, total: $0.total + $1.total)
        }
    }
    package var stateRatio: CoverageRatio { sum(\.stateRatio) }
    package var transitionRatio: CoverageRatio { sum(\.transitionRatio) }
    package var guardRatio: CoverageRatio { sum(\.guardRatio) }
    package var endRatio: CoverageRatio { sum(\.endRatio) }
}
