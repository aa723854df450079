/// Checks a session's templates, guards and references.
enum SessionChecker {
    static func check(_ session: SessionDef, in specs: SpecSet, into d: inout Diagnostics) {
        let plain = ExprContext(place: "session headers", declaredInputs: [])
        for (_, template) in session.headers {
            for expr in template.expressions { TypeChecker.check(expr, in: plain, into: &d) }
        }
        guard let refresh = session.refresh else { return }
        if let flow = specs.flows[refresh.flow.name] {
            for state in flow.orderedStates {
                if case .request(let r) = state.kind, let s = r.session ?? (r.sessionOptOut ? nil : flow.session), s.name == session.name {
                    d.warning(s.location, "the refresh flow `\(flow.name)` sends this request through its own session `\(session.name)`; refresh requests always bypass the session, so its headers and refresh do not apply here")
                }
            }
        } else {
            d.error(refresh.flow.location, "unknown flow `\(refresh.flow.name)`",
                    hint: Suggestion.didYouMean(refresh.flow.name, in: specs.flows.keys) ?? "refresh flows are loaded from the same folders as the session")
        }
        if let when = refresh.when {
            TypeChecker.checkCondition(when, in: ExprContext(place: "`refresh.when`", hasResponse: true, declaredInputs: []), into: &d)
        }
        for expr in [refresh.aheadExpiresAt, refresh.aheadMargin].compactMap({ $0 }) {
            let type = TypeChecker.check(expr, in: ExprContext(place: "`refresh.ahead`", declaredInputs: []), into: &d)
            if type != .number, type != .any { d.error(expr.location, "`\(expr.text)` must be a number of seconds, not a \(type.rawValue)") }
        }
    }
}
