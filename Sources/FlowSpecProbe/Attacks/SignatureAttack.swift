import FlowSpecLanguage

/// Forged access tokens: the signature altered, the claims altered under the original signature, `alg: none`.
enum SignatureAttack: ProbeAttack {
    static let name = "signature"
    static let title = "forged access tokens"
    static let universal = true
    static let sends =
        "to every protected flow, the session's access token with (1) one signature character changed, (2) the claims changed (a later `exp`) under the original signature, (3) `alg: none` with the same claims and no signature"
    static let control = "the same flows accept the session's own token, just before"
    static let heldWhen = "all three are refused. *n/a* when the access token is not a JWT"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let tokens = shared?.tokens, let token = c.accessToken(tokens) else { return c.noAccessToken() }
        guard JWT.forge(token, .unsigned) != nil else {
            return [c.verdict("", .notApplicable, "the access token is not a JWT")]
        }
        if let failed = await c.protectedControl(token, tokens: tokens) { return [failed] }
        var verdicts: [ProbeVerdict] = []
        for (check, way) in [
            ("altered signature", JWTForgery.alteredSignature),
            ("altered claims under the original signature", .alteredClaims),
            ("unsigned token (alg: none)", .unsigned),
        ] {
            guard let forged = JWT.forge(token, way) else { continue }
            c.environment.redactor.register(forged)
            verdicts.append(
                c.refusal(check, await c.protectedAnswers(token: token, replacement: forged, tokens: tokens)) {
                    flow, state in
                    .tokenSwap(flow: flow, state: state, token: .forged(way))
                })
        }
        return verdicts
    }
}

extension ProbeKind {
    package static let signature = ProbeKind(SignatureAttack.self)
}
