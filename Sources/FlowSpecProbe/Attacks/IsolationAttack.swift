import FlowSpecLanguage

/// Other sessions' access tokens (a customer's on staff endpoints) sent to this session's protected flows.
enum IsolationAttack: ProbeAttack {
    static let name = "isolation"
    static let title = "role and system isolation"
    static let options = [
        ProbeOption(
            "from", .sessions,
            "Sessions whose tokens this session's protected flows must refuse (each logs in with its own probe file).",
            required: true)
    ]
    static let sends =
        "the access token of each session named in `from:` (logged in with that session's own probe file), to this session's protected flows"
    static let control =
        "this session's flows accept its own token, and the other session's token opens that session's own protected flows"
    static let heldWhen = "refused"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let tokens = shared?.tokens else { return c.noAccessToken() }
        return await c.withAcceptedAccessToken(tokens) { token in
            var verdicts: [ProbeVerdict] = []
            for other in c.promise?.names("from") ?? [] {
                let check = "a token of \(other.name)"
                guard let foreign = c.runner.session(other.name) else {
                    verdicts.append(
                        c.verdict(
                            check, .error,
                            "not checked: session `\(other.name)` has no probe file to log in with (give it one with `login:`)"
                        ))
                    continue
                }
                let theirs = await foreign.login()
                guard theirs.succeeded, let key = foreign.accessTokenKey,
                    let foreignToken = theirs.tokens[key]?.stringValue
                else {
                    verdicts.append(
                        c.verdict(
                            check, .error,
                            "not checked: could not log in to \(other.name): \(theirs.result.outcome): \(theirs.result.reason)",
                            infrastructure: theirs.unreachable))
                    continue
                }
                // Their token must be a good one where it belongs, or its refusal here proves nothing.
                let theirCheck = ProbeCheck(
                    probe: foreign, kind: c.kind, source: c.source, promise: c.promise, runner: c.runner)
                if let failed = await theirCheck.protectedControl(foreignToken, tokens: theirs.tokens) {
                    verdicts.append(
                        c.verdict(
                            check, .error,
                            failed.detail.replacingOccurrences(
                                of: "the session's own token", with: "\(other.name)'s own token"),
                            infrastructure: failed.infrastructure))
                    continue
                }
                let theirLogin = foreign.declaration
                var found = c.refusal(
                    check, await c.protectedAnswers(token: token, replacement: foreignToken, tokens: tokens)
                ) { flow, state in
                    .foreignToken(
                        flow: flow, state: state, session: other.name, login: theirLogin.login.name, accessKey: key,
                        inputs: theirLogin.loginInputs)
                }
                if found.status == .held {
                    found.detail +=
                        ", and \(other.name)'s token by its own \(foreign.declaration.protected.map(\.name).joined(separator: ", "))"
                }
                verdicts.append(found)
                if foreign.declaration.logout != nil { _ = await foreign.logout(tokens: theirs.tokens) }
            }
            return verdicts
        }
    }
}

extension ProbeKind {
    package static let isolation = ProbeKind(IsolationAttack.self)
}
