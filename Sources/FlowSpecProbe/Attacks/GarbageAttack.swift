import FlowSpecLanguage
import FlowSpecRuntime

/// Empty, truncated, garbage and absent access tokens, and unknown, truncated and garbage refresh tokens.
enum GarbageAttack: ProbeAttack {
    static let name = "garbage"
    static let title = "garbage and absent tokens"
    static let universal = true
    static let sends =
        "to every protected flow an empty token, the token cut in half, `flowspec-probe-garbage`, and no token header at all; where the session refreshes, to its refresh flow an unknown refresh token (the real one with its end changed), the refresh token cut in half, and `flowspec-probe-garbage`"
    static let control =
        "the protected flows accept the session's own token; the refresh flow accepts the session's own refresh token"
    static let heldWhen = "every access token is refused; every refresh token is refused with a 4xx, never a 5xx"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let tokens = shared?.tokens, let token = c.accessToken(tokens) else { return c.noAccessToken() }
        var verdicts: [ProbeVerdict] = []
        if let failed = await c.protectedControl(token, tokens: tokens) {
            verdicts.append(failed)
        } else {
            let truncated = String(token.prefix(token.count / 2))
            c.environment.redactor.register(truncated)
            for (check, replacement) in [
                ("empty token", Optional("")), ("truncated token", truncated),
                ("garbage token", "flowspec-probe-garbage"),
                ("no token at all", nil),
            ] as [(String, String?)] {
                let sent: Reproduction.Token =
                    check == "truncated token" ? .truncated : replacement.map(Reproduction.Token.literal) ?? .absent
                verdicts.append(
                    c.refusal(check, await c.protectedAnswers(token: token, replacement: replacement, tokens: tokens)) {
                        flow, state in
                        .tokenSwap(flow: flow, state: state, token: sent)
                    })
            }
        }
        if c.probe.session.refresh != nil, let refresh = c.refreshToken(tokens) {
            verdicts += await refreshTokens(c, refresh, &shared)
        }
        return verdicts
    }

    /// Bad refresh tokens: a refusal counts only after the session's own refresh token was accepted by the same flow.
    static func refreshTokens(_ c: ProbeCheck, _ refresh: String, _ shared: inout SharedLogin?) async -> [ProbeVerdict]
    {
        guard let tokens = shared?.tokens else { return [] }
        let own = await c.probe.refresh(with: refresh, tokens: tokens)
        guard own.accepted else {
            shared?.alive = false
            return [
                c.verdict(
                    "refresh tokens", .error,
                    "not checked: the control failed: the refresh flow refused the session's own refresh token (\(own.result.outcome): \(own.result.reason)), so a refusal would prove nothing",
                    infrastructure: own.result.isInfrastructureFailure)
            ]
        }
        shared?.tokens = own.tokens
        let unknown =
            String(refresh.dropLast(min(8, refresh.count / 2)))
            + String(repeating: "x", count: min(8, refresh.count / 2))
        let truncated = String(refresh.prefix(refresh.count / 2))
        for value in [unknown, truncated] { c.environment.redactor.register(value) }
        var verdicts: [ProbeVerdict] = []
        for (check, bad) in [
            ("unknown refresh token", unknown), ("truncated refresh token", truncated),
            ("garbage refresh token", "flowspec-probe-garbage"),
        ] {
            let attempt = await c.probe.refresh(with: bad, tokens: own.tokens)
            let sent = attempt.log.last { entry in ProbeCheck.carries(entry.request, bad) }
            if let failure = sent?.failure {
                verdicts.append(
                    c.verdict(
                        check, .error, "not checked: the refresh: no answer: \(failure.kind.rawValue)",
                        infrastructure: true))
            } else if let status = sent?.response?.status, status >= 500 {
                verdicts.append(
                    c.verdict(
                        check, .broken, "the refresh answered \(status), a server error, instead of refusing",
                        evidence: attempt.log))
            } else if attempt.accepted || sent?.response.map({ (200..<300).contains($0.status) }) == true {
                verdicts.append(
                    c.verdict(
                        check, .broken, "the refresh accepted it (\(sent?.response?.status ?? 0))",
                        evidence: attempt.log))
            } else if let status = sent?.response?.status {
                verdicts.append(
                    c.verdict(
                        check, .held, "refused (\(status)); the control: the session's own refresh token was accepted"))
            } else {
                verdicts.append(
                    c.verdict(
                        check, .error,
                        "not checked: the refresh flow sent no request with the token (it ended `\(attempt.result.outcome)`)"
                    ))
            }
        }
        // The unknown token keeps the start of a real one: a backend that finds tokens by that start may take it
        // for reuse of the token the control rotated out, and revoke the family. The next attack must not find its
        // control failing on a session this one ended: where the session no longer refreshes, it logs in again.
        if let still = await c.stillRefreshes(own.tokens) { shared?.tokens = still } else { shared?.alive = false }
        return verdicts
    }
}

extension ProbeKind {
    package static let garbage = ProbeKind(GarbageAttack.self)
}
