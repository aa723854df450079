/// Turns a session file's YAML into a `SessionDef`.
public enum SessionDecoder {
    public static func decode(_ root: YAMLNode, file: String, _ d: inout Diagnostics) -> SessionDef? {
        guard let f = Fields(root, what: "a session", allowed: ["session", "title", "namespace", "headers", "refresh"], diagnostics: &d) else { return nil }
        let name = f.string("session", required: true, &d)
        let namespace = f.string("namespace", required: true, &d, hint: "sessions keep their tokens in a namespace, e.g. `namespace: staff`")
        let headers = FlowDecoder.templateMap(f, "headers", &d)
        if f.missing("headers") {
            d.error(root.location, "a session is missing the required key `headers`", hint: "e.g. `Authorization: \"Bearer ${store.access_token}\"`")
        }
        var refresh: SessionDef.Refresh?
        if let node = f["refresh"], let r = Fields(node, what: "`refresh`", allowed: ["flow", "when", "ahead", "on_failure"], diagnostics: &d) {
            let flow = r.string("flow", required: true, &d)
            let when = r["when"].flatMap { ExprReader.expression($0, what: "`refresh.when`", &d) }
            var expiresAt: Expr?
            var margin: Expr?
            if let ahead = r["ahead"], let a = Fields(ahead, what: "`refresh.ahead`", allowed: ["expires_at", "margin"], diagnostics: &d) {
                expiresAt = a.require("expires_at", &d).flatMap { ExprReader.expression($0, what: "`expires_at`", &d) }
                margin = a.require("margin", &d).flatMap { ExprReader.expression($0, what: "`margin`", &d) }
            }
            if when == nil, !r.has("ahead") {
                d.error(node.location, "`refresh` needs `when:` (refresh on a response) or `ahead:` (refresh before expiry), or both")
            }
            var outcome = "signed_out"
            var reason: Template?
            if let failure = r["on_failure"], let o = Fields(failure, what: "`on_failure`", allowed: ["outcome", "reason"], diagnostics: &d) {
                if let out = o.string("outcome", required: true, &d) {
                    outcome = out.name
                    if Flow.reservedOutcomes.contains(outcome) { d.error(out.location, "`\(outcome)` is a reserved outcome name") }
                }
                reason = o["reason"].flatMap { ExprReader.template($0, what: "`reason`", &d) }
            }
            if let flow {
                refresh = SessionDef.Refresh(flow: flow, when: when, aheadExpiresAt: expiresAt, aheadMargin: margin, failureOutcome: outcome, failureReason: reason)
            }
        }
        guard let name, let namespace else { return nil }
        return SessionDef(name: name.name, file: file, location: root.location, namespace: namespace.name, headers: headers, refresh: refresh)
    }
}
