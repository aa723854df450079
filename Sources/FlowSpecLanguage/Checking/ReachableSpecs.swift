extension SpecSet {
    /// Every flow a run of `names` may execute — the flows themselves, the flows they call, and their
    /// sessions' refresh flows — and those sessions, each once, in a stable order.
    package func reachable(from names: [String]) -> (flows: [Flow], sessions: [SessionDef]) {
        var flowsOut: [Flow] = []
        var sessionsOut: [SessionDef] = []
        var seenFlows: Set<String> = []
        var seenSessions: Set<String> = []
        var queue = Array(names.reversed())
        while let name = queue.popLast() {
            guard seenFlows.insert(name).inserted, let flow = flows[name] else { continue }
            flowsOut.append(flow)
            var sessionNames = [flow.session?.name].compactMap { $0 }
            for state in flow.orderedStates {
                switch state.kind {
                case .call(let c): queue.insert(c.flow.name, at: 0)
                case .request(let r): if let s = r.session { sessionNames.append(s.name) }
                case .input, .choice, .wait, .end: break
                }
            }
            for s in sessionNames where seenSessions.insert(s).inserted {
                guard let session = sessions[s] else { continue }
                sessionsOut.append(session)
                if let refresh = session.refresh { queue.insert(refresh.flow.name, at: 0) }
            }
        }
        return (flowsOut, sessionsOut)
    }
}

extension SpecSet {
    /// The run variables the base URLs of every flow a run of `names` may execute read (`base_url:
    /// "${vars.repairminder_url}"` → `repairminder_url`): where that run's backend is said to be. A run that gives
    /// them all has a backend of its own.
    package func baseURLVariables(from names: [String]) -> Set<String> {
        Set(reachable(from: names).flows.compactMap(\.baseURL).flatMap(\.expressions).flatMap(\.varsReads).map(\.0))
    }
}
