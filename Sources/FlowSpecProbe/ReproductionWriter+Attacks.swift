import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

/// The states each attack's reproduction is written with: rotation, reuse within and past a grace interval,
/// presenting a token, logout, and sending a protected request with a chosen token.
extension ReproductionWriter {
    func rotation(_ c: Context) -> String {
        logIn(c, success: "refresh", set: "first: store.\(c.key)") + """
              refresh:
                call: \(c.refresh)
                on:
                  - when: success && store.\(c.key) != first
                    goto: held
                  - else: true
                    goto: broken

            """
            + ends(
                "the refresh answered a new refresh token",
                "the refresh failed, or answered the same refresh token again")
    }

    func wait(_ source: String?) -> String {
        guard let source else { return "1" }
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("${"), trimmed.hasSuffix("}"), !trimmed.dropFirst(2).contains("${") {
            return "number(\(trimmed.dropFirst(2).dropLast())) + 1"
        }
        return Double(trimmed).map { "\($0 + 1)" } ?? "1"
    }

    func reuse(_ c: Context, grace: Bool, interval: String?, family: Bool) -> String {
        var text = logIn(c, success: "rotate", set: "first: store.\(c.key)")
        text += """
              rotate:
                call: \(c.refresh)
                on:
                  - when: success
                    goto: \(grace ? "rotate_again" : "rotated")
                  - else: true
                    set: { why: reason }
                    goto: not_checked

            """
        if grace {
            text += """
                  # The parent of the active token may be reused by design: rotate once more so the reused one is older.
                  rotate_again:
                    call: \(c.refresh)
                    on:
                      - when: success
                        goto: rotated
                      - else: true
                        set: { why: reason }
                        goto: not_checked

                """
        }
        let pause = interval != nil
        text += """
              rotated:
                choice:
                  - else: true
                    set: { newest: store.\(c.key) }
                    goto: \(pause ? "reuse_interval" : "present_old")

            """
        if pause { text += waitState("reuse_interval", interval, next: "present_old") }
        text += present(
            c, "first", as: "present_old", then: "reuse",
            refused: family ? (pause ? "family_interval" : "present_newest") : "held")
        if family {
            if pause { text += waitState("family_interval", interval, next: "present_newest") }
            text += present(c, "newest", as: "present_newest", then: "newest_after_reuse", refused: "held")
        }
        return text
            + ends(
                family
                    ? "the rotated-out token was refused, and then the newest one too"
                    : "the rotated-out token was refused",
                family
                    ? "a rotated-out token, or after its reuse the newest one, still refreshed"
                    : "a rotated-out refresh token was accepted again")
    }

    /// Waits out a reuse interval (plus a second), then goes on.
    func waitState(_ name: String, _ interval: String?, next: String) -> String {
        "  \(name):\n    wait: \(wait(interval))\n    goto: \(next)\n"
    }

    /// Puts the refresh token held in `variable` back into the store, then presents it to the refresh flow:
    /// accepted is broken, refused goes on to `refused`.
    func present(_ c: Context, _ variable: String, as name: String, then refresh: String, refused: String) -> String {
        """
          \(name):
            choice:
              - else: true
                store: { \(c.key): \(variable) }
                goto: \(refresh)
          \(refresh):
            call: \(c.refresh)
            on:
              - when: success
                goto: broken
              - else: true
                goto: \(refused)

        """
    }

    /// Logs in, logs out and presents the refresh token from before logout. The logout request is sent without the
    /// session, as the probe sends it: through the session, a token shorter-lived than its refresh margin would be
    /// refreshed first, and the old token refused as rotated-out rather than as logged out.
    func logout(_ c: Context) -> (defaults: String, states: String) {
        var defaults = ""
        var logOut = """
              log_out:
                call: \(c.declaration.logout?.name ?? "")
                on:
                  - else: true
                    store: { \(c.key): token }
                    goto: refresh

            """
        if let flow = c.declaration.logout.flatMap({ specs.flows[$0.name] }),
            let state = flow.stateOrder.first(where: {
                if case .request? = flow.states[$0]?.kind { return true } else { return false }
            }),
            let direct = sendState(
                c, flow: flow.name, state: state, token: .own, as: "log_out",
                on: """
                          - when: status >= 200 && status < 300
                            store: { \(c.key): token }
                            goto: refresh
                          - else: true
                            goto: logout_refused

                    """), !direct.hadBody
        {
            defaults = direct.defaults.isEmpty ? "" : "defaults:\n" + direct.defaults
            logOut =
                direct.text + """
                      logout_refused:
                        end: not_checked
                        success: false
                        reason: "not checked: the logout request was refused, so it ended nothing"

                    """
        }
        return (
            defaults,
            logIn(c, success: "log_out", set: "token: store.\(c.key)") + logOut + """
                  refresh:
                    call: \(c.refresh)
                    on:
                      - when: success
                        goto: broken
                      - else: true
                        goto: held

                """ + ends("after logout the refresh token was refused", "the refresh token still worked after logout")
        )
    }

    /// Logs in, keeps the access token, logs out, and sends the protected request with the token from before logout.
    func accessAfterLogout(_ c: Context, flow name: String, state: String) -> (String, String)? {
        guard let key = c.session.accessTokenKey, let logout = c.declaration.logout?.name else { return nil }
        guard let (defaults, send) = refusedSend(c, flow: name, state: state, token: .own) else { return nil }
        let states =
            logIn(c, success: "log_out", set: "access: store.\(key)") + """
                  log_out:
                    call: \(logout)
                    on:
                      - when: success
                        store: { \(key): access }
                        goto: send
                      - else: true
                        goto: logout_failed
                  logout_failed:
                    end: not_checked
                    success: false
                    reason: "not checked: the logout did not succeed, so it ended nothing"

                """ + send
            + ends("after logout the backend refused the access token", "the access token still worked after logout")
        return (defaults.isEmpty ? "" : "defaults:\n" + defaults, states)
    }

    /// The protected request as state `send`, carrying `token`: held when the backend refuses it with a documented
    /// status (any 4xx when none is declared), broken otherwise. Nil when the request cannot be written (`sendState`).
    func refusedSend(_ c: Context, flow name: String, state: String, token: SentToken) -> (
        defaults: String, send: String
    )? {
        let refused =
            c.declaration.refused.isEmpty
            ? "status >= 400 && status < 500"
            : c.declaration.refused.map { "status == \($0)" }.joined(separator: " || ")
        guard
            let (defaults, send, _) = sendState(
                c, flow: name, state: state, token: token, as: "send",
                on: """
                          - when: \(refused)
                            goto: held
                          - else: true
                            goto: broken

                    """)
        else { return nil }
        return (defaults, send)
    }

    /// Which token the reproduced request carries where the session's headers carry its access token.
    enum SentToken {
        /// The session's own (the expiry probe).
        case own
        case swapped(Reproduction.Token)
        /// Another session's, read from its namespace's store under this key.
        case foreign(String)
    }

    /// The protected flow's request, sent without the session, with the session's headers written out and the
    /// token replaced as `token` says. Nil when the request reads what the reproduction cannot have: a variable of
    /// the protected flow, or for another session's token, this session's store or inputs.
    func request(_ c: Context, flow name: String, state: String, token: SentToken, wait seconds: Double? = nil) -> (
        String, String
    )? {
        guard let (defaults, send) = refusedSend(c, flow: name, state: state, token: token) else { return nil }
        var states = logIn(c, success: seconds == nil ? "send" : "pause")
        if let seconds {
            states += "  pause:\n    wait: \(Int(seconds.rounded(.up)))\n    goto: send\n"
        }
        states += send + ends("the backend refused it", "the backend did not refuse it with the documented status")
        return (defaults.isEmpty ? "" : "defaults:\n" + defaults, states)
    }

    /// A request state named `name` that sends the request state `state` of flow `flow` without any session, the
    /// session's headers written out with the token `token`, going on by the transitions `on`. Also the flow's
    /// defaults, and whether the original request had a body (left out). Nil as for `request`.
    func sendState(_ c: Context, flow name: String, state: String, token: SentToken, as stateName: String, on: String)
        -> (defaults: String, text: String, hadBody: Bool)?
    {
        guard let flow = specs.flows[name], case .request(let r)? = flow.states[state]?.kind else { return nil }
        var templates = r.headers.map(\.1) + r.query.map(\.1) + [r.path, r.url].compactMap { $0 }
        templates += c.session.headers.map(\.1).filter { !carriesToken($0, c) }
        let expressions = templates.flatMap(\.expressions)
        guard expressions.allSatisfy({ $0.variableReads.isEmpty }) else { return nil }
        if case .foreign = token, !expressions.allSatisfy({ $0.storeReads.isEmpty && $0.inputReads.isEmpty }) {
            return nil
        }
        var defaults = ""
        if let base = flow.baseURL { defaults += "  base_url: \(Self.quoted(base.source))\n" }
        if !flow.headers.isEmpty {
            defaults +=
                "  headers:\n" + flow.headers.map { "    \(Self.quoted($0.0)): \(Self.quoted($0.1.source))\n" }.joined()
        }
        var headers: [(String, String)] = r.headers.map { ($0.0, $0.1.source) }
        for (header, template) in c.session.headers {
            guard carriesToken(template, c) else { headers.append((header, template.source)); continue }
            let expression =
                template.expressions.first { $0.storeReads.contains { $0.0 == c.session.accessTokenKey } }?.text ?? ""
            let replaced: (String) -> String = {
                template.source.replacingOccurrences(of: "${\(expression)}", with: $0)
            }
            switch token {
            case .own: headers.append((header, template.source))
            case .foreign(let key): headers.append((header, replaced("${store.\(key)}")))
            case .swapped(.absent): continue
            case .swapped(.literal(let literal)):
                let written = replaced(literal.replacingOccurrences(of: "${", with: "$${"))
                headers.append((header, written == template.source ? literal : written))
            case .swapped(.truncated):
                headers.append((header, replaced("${slice(\(expression), 0, len(\(expression)) / 2)}")))
            case .swapped(.forged(let way)):
                headers.append((header, replaced("${forge_jwt(\(expression), \"\(way.rawValue)\")}")))
            }
        }
        var send = "  \(stateName):\n    request:\n      method: \(r.method)\n"
        if let path = r.path { send += "      path: \(Self.quoted(path.source))\n" }
        if let url = r.url { send += "      url: \(Self.quoted(url.source))\n" }
        if !r.query.isEmpty {
            send +=
                "      query: { "
                + r.query.map { "\(Self.quoted($0.0)): \(Self.quoted($0.1.source))" }.joined(separator: ", ") + " }\n"
        }
        if !headers.isEmpty {
            send +=
                "      headers: { "
                + headers.map { "\(Self.quoted($0.0)): \(Self.quoted($0.1))" }.joined(separator: ", ") + " }\n"
        }
        var hadBody = true
        if case .none = r.body {
            hadBody = false
        } else {
            send += "      # the original request also had a body, left out here\n"
        }
        send += "    session: none\n    on:\n" + on
        return (defaults, send, hadBody)
    }

    /// Whether a session header's template sends the session's access token.
    func carriesToken(_ template: Template, _ c: Context) -> Bool {
        template.expressions.contains { $0.storeReads.contains { $0.0 == c.session.accessTokenKey } }
    }

    func inputs(_ inputs: ScenarioInputs) -> String {
        guard !inputs.isEmpty else { return "" }
        var text = "inputs:\n"
        for name in inputs.names.sorted() {
            if let command = inputs.commands[name] {
                text += "  \(name): { command: \(Self.quoted(command.source)) }\n"
            } else if let values = inputs.values[name] {
                text +=
                    values.count == 1
                    ? "  \(name): \(Self.quoted(values[0].source))\n"
                    : "  \(name): [" + values.map { Self.quoted($0.source) }.joined(separator: ", ") + "]\n"
            }
        }
        return text
    }
}
