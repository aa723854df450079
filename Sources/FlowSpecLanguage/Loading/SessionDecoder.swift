/// Turns a session file's YAML into a `SessionDef`.
package enum SessionDecoder {
    package static func decode(_ root: YAMLNode, file: String, _ d: inout Diagnostics) -> SessionDef? {
        guard
            let f = Fields(
                root, what: "a session", allowed: ["session", "title", "namespace", "headers", "refresh"],
                diagnostics: &d)
        else { return nil }
        let name = f.string("session", required: true, &d)
        let namespace = f.string(
            "namespace", required: true, &d, hint: "sessions keep their tokens in a namespace, e.g. `namespace: staff`")
        let headers = FlowDecoder.templateMap(f, "headers", &d)
        if f.missing("headers") {
            d.error(
                root.location, "a session is missing the required key `headers`",
                hint: "e.g. `Authorization: \"Bearer ${store.access_token}\"`")
        }
        var refresh: SessionDef.Refresh?
        if let node = f["refresh"],
            let r = Fields(
                node, what: "`refresh`", allowed: ["flow", "when", "ahead", "on_failure", "not_for"], diagnostics: &d)
        {
            let flow = r.string("flow", required: true, &d)
            let when = r["when"].flatMap { ExprReader.expression($0, what: "`refresh.when`", &d) }
            var expiresAt: Expr?
            var margin: Expr?
            if let ahead = r["ahead"],
                let a = Fields(ahead, what: "`refresh.ahead`", allowed: ["expires_at", "margin"], diagnostics: &d)
            {
                expiresAt = a.require("expires_at", &d).flatMap { ExprReader.expression($0, what: "`expires_at`", &d) }
                margin = a.require("margin", &d).flatMap { ExprReader.expression($0, what: "`margin`", &d) }
            }
            if when == nil, !r.has("ahead") {
                d.error(
                    node.location,
                    "`refresh` needs `when:` (refresh on a response) or `ahead:` (refresh before expiry), or both")
            }
            var outcome = "signed_out"
            var reason: Template?
            if let failure = r["on_failure"],
                let o = Fields(failure, what: "`on_failure`", allowed: ["outcome", "reason"], diagnostics: &d)
            {
                if let out = o.string("outcome", required: true, &d) {
                    outcome = out.name
                    if Flow.reservedOutcomes.contains(outcome) {
                        d.error(out.location, "`\(outcome)` is a reserved outcome name")
                    }
                }
                reason = o["reason"].flatMap { ExprReader.template($0, what: "`reason`", &d) }
            }
            let notFor = r["not_for"].map { requestNames($0, &d) } ?? []
            if !notFor.isEmpty, when == nil, let at = r.keyLocation("not_for") {
                d.warning(
                    at,
                    "`refresh.not_for` exempts requests from the reactive refresh, but this session has no `refresh.when`; it changes nothing",
                    hint: "proactive refresh (`ahead:`) applies to every request; remove `not_for:` or add `when:`")
            }
            if let flow {
                refresh = SessionDef.Refresh(
                    flow: flow, when: when, aheadExpiresAt: expiresAt, aheadMargin: margin, failureOutcome: outcome,
                    failureReason: reason, notFor: notFor)
            }
        }
        guard let name, let namespace else { return nil }
        return SessionDef(
            name: name.name, file: file, location: root.location, namespace: namespace.name, headers: headers,
            refresh: refresh)
    }

    /// `not_for:` entries, each `"METHOD /path"` with the path as written in the flow's request state.
    static func requestNames(_ node: YAMLNode, _ d: inout Diagnostics) -> [RequestName] {
        guard let items = node.sequence else {
            d.error(
                node.location, "`refresh.not_for` must be a list of requests, found \(node.kindName)",
                hint: "e.g. `not_for: [\"POST /auth/logout\"]`")
            return []
        }
        var out: [RequestName] = []
        for item in items {
            guard let text = item.scalar, !item.isNull, let name = RequestName.parse(text, at: item.textLocation) else {
                d.error(
                    item.location,
                    "`refresh.not_for`: each entry is a request written \"METHOD /path\", found \(item.scalar.map { "\"\($0)\"" } ?? item.kindName)",
                    hint:
                        "the method and the request state's `path:` as written in the flow, e.g. \"POST /auth/logout\"")
                continue
            }
            if out.contains(name) {
                d.warning(item.location, "`refresh.not_for` lists \(name) twice")
            } else {
                out.append(name)
            }
        }
        return out
    }
}
