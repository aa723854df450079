import FlowSpecLanguage
import FlowSpecScenarios

/// Which flows a coverage report is about. By default, the flows the given scenarios are about: every flow
/// any of them runs, calls, or refreshes through — so `run scenarios/supabase --coverage` is not drowned in
/// other products' flows, and every shard of one suite reports the same flows. `--all-flows` takes every flow
/// in the flows folder, so a flow no scenario mentions shows up as 0% instead of not at all.
package enum CoverageScope {
    package static func flows(of scenarios: [Scenario], in specs: SpecSet, allFlows: Bool) -> Set<String> {
        if allFlows { return Set(specs.flows.keys) }
        return Set(specs.reachable(from: scenarios.flatMap(\.flowNames)).flows.map(\.name))
    }
}
