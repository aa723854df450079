import FlowSpecLanguage
import FlowSpecRuntime

/// Broken object-level authorization (OWASP API Security Top 10, API1:2023): one user's token on another user's
/// object, both ways, between two accounts of the same role.
enum CrossUserAttack: ProbeAttack {
    static let name = "cross_user"
    static let title = "cross-user object access"
    static let stage = ProbeStage.own
    static let options = [
        ProbeOption(
            "second_account", .account,
            "Another account of the same role, logged in with the probe file's login flow: `{ inputs: { … } }`.",
            required: true),
        ProbeOption(
            "owner", .flow,
            "A flow of this session that creates (or finds) an object of the logged-in user and stores its id.",
            required: true),
        ProbeOption("object_key", .key, "The store key under which `owner` stores the object's id.", required: true),
        ProbeOption(
            "access", .flows, "Flows of this session that read or change the object, reading its id from the store.",
            required: true),
        ProbeOption("refused", .statuses, "The statuses that mean refused (default 403 or 404)."),
    ]
    static let sends =
        "logs in both accounts; each runs `owner` to get an object of its own; then each `access` flow with one user's token and the other user's object id, both ways"
    static let control = "each `access` flow succeeds with the owner's own token on the owner's object"
    static let heldWhen = "every cross-user request is refused with a declared status (403 or 404)"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let promise = c.promise, let owner = promise.names("owner").first?.name,
            let key = promise.names("object_key").first?.name,
            let secondInputs = promise.inputs("second_account")
        else { return [] }
        let refused = promise.statuses("refused").isEmpty ? [403, 404] : promise.statuses("refused")
        let first = await c.probe.login()
        guard first.succeeded else { return [c.notLoggedIn(first)] }
        let second = await c.probe.login(inputs: secondInputs)
        guard second.succeeded else {
            return [
                c.verdict(
                    "", .error,
                    "not checked: could not log in the second account: \(second.result.outcome): \(second.result.reason)",
                    infrastructure: second.unreachable)
            ]
        }
        var users: [(name: String, tokens: [String: JSONValue], id: String)] = []
        for (name, login) in [("the first account", first), ("the second account", second)] {
            let made = await c.probe.run(owner, tokens: login.tokens)
            guard made.result.success, let id = made.tokens[key].flatMap(Self.text) else {
                return [
                    c.verdict(
                        "", .error,
                        "not checked: \(owner) with \(name) \(made.result.success ? "stored no `\(key)`" : "ended `\(made.result.outcome)`: \(made.result.reason)")",
                        infrastructure: made.result.isInfrastructureFailure)
                ]
            }
            users.append((name, made.tokens, id))
        }
        var verdicts: [ProbeVerdict] = []
        for flow in promise.names("access").map(\.name) {
            for (me, them) in [(users[0], users[1]), (users[1], users[0])] {
                let check = "\(flow): \(me.name)'s token on \(them.name)'s object"
                // The control: the owner reaches its own object through this flow.
                let own = await c.probe.run(flow, tokens: them.tokens)
                guard own.result.success else {
                    verdicts.append(
                        c.verdict(
                            check, .error,
                            "not checked: the control failed: \(flow) with the owner's own token ended `\(own.result.outcome)`: \(own.result.reason)",
                            infrastructure: own.result.isInfrastructureFailure))
                    continue
                }
                var mine = me.tokens
                mine[key] = .string(them.id)
                let crossed = await c.probe.run(flow, tokens: mine)
                guard let sent = crossed.log.last(where: { Self.carries($0.request, them.id) }) else {
                    verdicts.append(
                        c.verdict(
                            check, .error,
                            "not checked: \(flow) sent no request with the object's id (it ended `\(crossed.result.outcome)`)"
                        ))
                    continue
                }
                guard let status = sent.response?.status else {
                    verdicts.append(c.verdict(check, .error, "not checked: \(flow): no answer", infrastructure: true))
                    continue
                }
                if refused.contains(status) {
                    verdicts.append(
                        c.verdict(check, .held, "refused (\(status)); the control: the owner's own token reached it"))
                } else if (200..<300).contains(status) {
                    verdicts.append(
                        c.verdict(
                            check, .broken, "\(me.name) reached \(them.name)'s object: \(status)",
                            evidence: own.log.suffix(1) + [sent]))
                } else {
                    verdicts.append(
                        c.verdict(
                            check, .broken,
                            "answered \(status), not the declared refusal \(refused.map(String.init).joined(separator: " or "))",
                            evidence: [sent]))
                }
            }
        }
        if c.probe.declaration.logout != nil {
            _ = await c.probe.logout(tokens: first.tokens)
            _ = await c.probe.logout(tokens: second.tokens)
        }
        return verdicts
    }

    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): s.isEmpty ? nil : s
        case .number(let n): n == n.rounded() ? String(Int(n)) : String(n)
        default: nil
        }
    }

    /// Whether the request names the object: in its path, query or body.
    static func carries(_ request: HTTPRequest, _ id: String) -> Bool {
        request.path.contains(id) || ProbeCheck.carries(request, id)
    }
}

extension ProbeKind {
    package static let crossUser = ProbeKind(CrossUserAttack.self)
}
