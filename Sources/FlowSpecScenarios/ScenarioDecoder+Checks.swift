import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// What a scenario's run steps are checked for against the loaded flows: inputs no flow reads, inputs a flow
/// always reads but nothing gives, expectations no run can meet.
extension ScenarioDecoder {
    /// Inputs that `flow`, the flows it calls and its sessions' refresh flows can read.
    package static func reachableInputs(_ flow: Flow, specs: SpecSet) -> Set<String> {
        Set(specs.reachable(from: [flow.name]).flows.flatMap { $0.inputs.map(\.name) })
    }

    static func checkInputNames(
        _ given: Set<String>, node: YAMLNode?, flows: [Flow], specs: SpecSet, _ d: inout Diagnostics
    ) {
        guard let node, !flows.isEmpty else { return }
        let known = flows.reduce(into: Set<String>()) { $0.formUnion(reachableInputs($1, specs: specs)) }
        for (ref, _) in Fields.pairs(of: node, what: "`inputs`", &d) ?? [] where !known.contains(ref.name) {
            let names = flows.map { "`\($0.name)`" }.joined(separator: ", ")
            d.error(
                ref.location, "no flow this scenario runs (\(names)) reads an input named `\(ref.name)`",
                hint: Suggestion.amongNames(ref.name, in: known.sorted(), listing: "inputs"))
        }
    }

    /// A flow that reads an input on every path cannot run without it: say so now, once, instead of a run-time
    /// "missing input" followed by every exchange it then left unused.
    static func checkAlwaysReadInputs(
        _ step: Scenario.RunStep, given: Set<String>, specs: SpecSet, _ d: inout Diagnostics
    ) {
        guard let flow = specs.flows[step.flow.name] else { return }
        // A given name the flow does not read (`pasword`) already has its did-you-mean error: the input it
        // was meant to be is not reported missing as well.
        let known = reachableInputs(flow, specs: specs)
        let typos = given.subtracting(known)
        let missing = MustReadInputs.of(step.flow.name, specs: specs).subtracting(given)
            .filter { name in !typos.contains { Suggestion.closest(to: $0, in: [name]) != nil } }.sorted()
        guard !missing.isEmpty else { return }
        let names = missing.map { "`\($0)`" }.joined(separator: ", ")
        d.error(
            step.location,
            "flow `\(step.flow.name)` reads the input\(missing.count == 1 ? "" : "s") \(names) on every path, and this scenario does not give \(missing.count == 1 ? "it" : "them")",
            hint:
                "add \(missing.map { "`\($0): …`" }.joined(separator: ", ")) under `inputs:` (a list gives successive answers; `{ command: \"…\" }` fetches a value)"
        )
    }

    static func check(_ step: Scenario.RunStep, specs: SpecSet, scenarioInputs: ScenarioInputs, _ d: inout Diagnostics)
    {
        guard
            let flow = specs.flow(
                step.flow, otherwise: "flows are named `<system>.<file stem>`; is the flows folder loaded (--flows)?",
                reportingTo: &d)
        else { return }
        // A state that exists but did not load (a misspelt kind) has its own error: one mistake, one error.
        if let expect = step.expect, let path = expect.path {
            for ref in path where flow.states[ref.name] == nil && !flow.brokenStates.contains(ref.name) {
                d.error(
                    ref.location, "flow `\(flow.name)` has no state `\(ref.name)`",
                    hint: Suggestion.amongNames(ref.name, in: flow.stateOrder, listing: "states"))
            }
        }
        if let expect = step.expect, !expect.variables.isEmpty, flow.brokenStates.isEmpty {
            var settable = Set(flow.variables.map(\.0)).union(["input_error"])
            for state in flow.orderedStates { for t in state.transitions { settable.formUnion(t.set.map(\.0)) } }
            for (name, _) in expect.variables where !settable.contains(name) {
                d.error(
                    expect.location, "flow `\(flow.name)` never sets a variable named `\(name)`",
                    hint: Suggestion.amongNames(name, in: settable.sorted(), listing: "variables"))
            }
        }
        checkRequestExpectations(step.expect, flows: [flow.name], specs: specs, &d)
        if let outcome = step.expect?.outcome,
            !specs.reachable(from: [flow.name]).flows.contains(where: { !$0.brokenStates.isEmpty })
        {
            let outcomes = FlowOutcomes.possible(flow, specs: specs)
            if !outcomes.contains(outcome) {
                d.error(
                    step.expect!.location, "flow `\(flow.name)` can never end with outcome `\(outcome)`",
                    hint: Suggestion.amongNames(outcome, in: outcomes.sorted(), listing: "outcomes"))
            }
        }
    }
}
