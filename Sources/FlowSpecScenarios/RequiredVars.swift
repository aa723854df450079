import FlowSpecLanguage

/// The run variables a scenario needs: those its inputs read, and those every flow it may run reads — the
/// flows its steps name, the flows they call, their sessions and the sessions' refresh flows.
enum RequiredVars {
    static func of(flows names: [String], inputs: [ScenarioInputs], specs: SpecSet) -> Set<String> {
        var exprs = inputs.flatMap(\.templates).flatMap(\.expressions)
        let (flows, sessions) = specs.reachable(from: names)
        for flow in flows {
            exprs +=
                flow.variables.map(\.1)
                + ([flow.baseURL].compactMap { $0 } + flow.headers.map(\.1)).flatMap(\.expressions)
            for state in flow.orderedStates { exprs += FlowChecker.expressions(in: state) }
        }
        for session in sessions {
            exprs += session.headers.flatMap { $0.1.expressions }
            if let refresh = session.refresh {
                exprs += [refresh.when, refresh.aheadExpiresAt, refresh.aheadMargin].compactMap { $0 }
            }
        }
        return Set(exprs.flatMap(\.varsReads).map(\.0))
    }
}
