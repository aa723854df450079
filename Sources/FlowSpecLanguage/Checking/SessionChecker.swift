/// Checks a session's templates, guards and references.
enum SessionChecker {
    static func check(_ session: SessionDef, in specs: SpecSet, into d: inout Diagnostics) {
        let plain = ExprContext(place: "session headers", declaredInputs: [])
        for (_, template) in session.headers {
            for expr in template.expressions { TypeChecker.check(expr, in: plain, into: &d) }
        }
        guard let refresh = session.refresh else { return }
        if let flow = specs.flow(
            refresh.flow, otherwise: "refresh flows are loaded from the same folders as the session", reportingTo: &d)
        {
            for state in flow.orderedStates {
                if case .request(let r) = state.kind, let s = r.session ?? (r.sessionOptOut ? nil : flow.session),
                    s.name == session.name
                {
                    d.warning(
                        s.location,
                        "the refresh flow `\(flow.name)` sends this request through its own session `\(session.name)`; refresh requests always bypass the session, so its headers and refresh do not apply here"
                    )
                }
            }
        }
        checkNotFor(session, refresh, in: specs, into: &d)
        checkFailureOutcome(session, refresh, in: specs, into: &d)
        if let when = refresh.when {
            TypeChecker.checkCondition(
                when, in: ExprContext(place: "`refresh.when`", hasResponse: true, declaredInputs: []), into: &d)
        }
        for expr in [refresh.aheadExpiresAt, refresh.aheadMargin].compactMap({ $0 }) {
            let type = TypeChecker.check(expr, in: ExprContext(place: "`refresh.ahead`", declaredInputs: []), into: &d)
            if type != .number, type != .any {
                d.error(expr.location, "`\(expr.text)` must be a number of seconds, not a \(type.rawValue)")
            }
        }
    }

    /// A flow that sends through the session and has a successful end named like the session's `on_failure.outcome`
    /// (a logout ending `signed_out`, beside a session that ends its callers `signed_out` when the refresh fails): a
    /// caller or a scenario that tests the outcome cannot tell "logged out" from "the session was lost while logging
    /// out" — the very confusion of a logout answered 401 and taken for an expired token.
    static func checkFailureOutcome(
        _ session: SessionDef, _ refresh: SessionDef.Refresh, in specs: SpecSet, into d: inout Diagnostics
    ) {
        for name in specs.flows.keys.sorted() {
            let flow = specs.flows[name]!
            let sends = flow.orderedStates.contains { state in
                if case .request(let r) = state.kind {
                    return !r.sessionOptOut && (r.session ?? flow.session)?.name == session.name
                }
                return false
            }
            guard sends else { continue }
            for state in flow.orderedStates {
                guard case .end(let end) = state.kind, end.success, end.outcome == refresh.failureOutcome else {
                    continue
                }
                d.warning(
                    state.location,
                    "end `\(state.name)` of flow `\(flow.name)` succeeds with outcome `\(end.outcome)`, the outcome session `\(session.name)` ends its callers with when a refresh fails",
                    hint:
                        "a caller or scenario testing `outcome == \"\(end.outcome)\"` cannot tell the two apart: rename one (e.g. `on_failure: { outcome: session_expired }`), or test `success` too"
                )
            }
        }
    }

    /// Every `not_for` entry must name a request state that goes through this session: a typo would otherwise
    /// leave the refresh on for the request the user meant, silently.
    static func checkNotFor(
        _ session: SessionDef, _ refresh: SessionDef.Refresh, in specs: SpecSet, into d: inout Diagnostics
    ) {
        guard !refresh.notFor.isEmpty else { return }
        var sent: [RequestState] = []
        for name in specs.flows.keys.sorted() {
            let flow = specs.flows[name]!
            for state in flow.orderedStates {
                if case .request(let r) = state.kind, !r.sessionOptOut,
                    (r.session ?? flow.session)?.name == session.name
                {
                    sent.append(r)
                }
            }
        }
        for entry in refresh.notFor where !sent.contains(where: entry.names) {
            let written = sent.compactMap { r in r.path.map { "\(r.method) \($0.source)" } }
            var seen = Set<String>()
            let candidates = written.filter { seen.insert($0).inserted }
            let hint =
                Suggestion.didYouMean(entry.description, in: candidates)
                ?? (candidates.isEmpty
                    ? "no request state sends through session `\(session.name)`"
                    : "write the method and the `path:` exactly as in the flow; requests through this session: "
                        + candidates.prefix(8).joined(separator: ", "))
            d.error(
                entry.location,
                "`refresh.not_for` names \(entry), but no request state sent through session `\(session.name)` has that method and path",
                hint: hint)
        }
    }
}
