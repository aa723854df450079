import FlowSpecLanguage

/// The outcomes a flow can end with: its end states, its sessions' failure outcomes, `unhandled` and `error`.
enum FlowOutcomes {
    static func possible(_ flow: Flow, specs: SpecSet) -> Set<String> {
        var out: Set<String> = Flow.reservedOutcomes
        var sessionNames = Set<String>()
        if let s = flow.session { sessionNames.insert(s.name) }
        for state in flow.orderedStates {
            switch state.kind {
            case .end(let e): out.insert(e.outcome)
            case .request(let r): if let s = r.session { sessionNames.insert(s.name) }
            case .input, .choice, .call, .wait: break
            }
        }
        for s in sessionNames { if let o = specs.sessions[s]?.refresh?.failureOutcome { out.insert(o) } }
        return out
    }
}
