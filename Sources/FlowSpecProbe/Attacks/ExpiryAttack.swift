import FlowSpecLanguage

/// The session's own access token again, after its `exp`.
enum ExpiryAttack: ProbeAttack {
    static let name = "expiry"
    static let title = "expired access token"
    static let options = [
        ProbeOption("leeway", .duration, "Seconds of clock skew the backend may allow past `exp`."),
        ProbeOption(
            "lifetime", .duration,
            "For a token that is not a JWT: how long the backend says it lives (a duration or a template over run variables); the probe logs in anew and waits that long."
        ),
    ]
    static let sends =
        "the session's token again after its `exp` (plus `leeway`); a token that is not a JWT, after the declared `lifetime` from a login of its own"
    static let control = "the same token was accepted before the wait"
    static let heldWhen = "refused. *skipped* when that is further away than `--allow-wait` (default 60 s)"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard var tokens = shared?.tokens, var token = c.accessToken(tokens) else { return c.noAccessToken() }
        var leeway = 0.0
        switch c.environment.requiredSeconds(c.promise?.duration("leeway")) {
        case .failure(let problem)?: return [c.verdict("", .skipped, problem.message)]
        case .success(let seconds)?: leeway = seconds
        case nil: break
        }
        let expiresAt: Double
        var check = "past its exp"
        if let exp = JWT.expiry(of: token) {
            expiresAt = exp
        } else {
            check = "past its declared lifetime"
            // An opaque token states no expiry: only the declared lifetime, counted from a login whose time is known.
            let lifetime: Double
            switch c.environment.requiredSeconds(c.promise?.duration("lifetime")) {
            case .failure(let problem)?: return [c.verdict("", .skipped, problem.message)]
            case .success(let seconds)?: lifetime = seconds
            case nil:
                return [
                    c.verdict(
                        "", .notApplicable,
                        "the access token is not a JWT with an `exp` claim, and no `lifetime:` is declared for it")
                ]
            }
            guard lifetime + leeway + 1 <= c.environment.allowWait else {
                return [
                    c.verdict(
                        "", .skipped,
                        Durations.waitNotAllowed(
                            "the expiry probe", seconds: lifetime + leeway + 1, limit: c.environment.allowWait))
                ]
            }
            let login = await c.probe.login()
            guard login.succeeded, let fresh = c.accessToken(login.tokens) else { return [c.notLoggedIn(login)] }
            // Counted from the end of the login: the token was issued during it, so the wait is never shorter than its
            // lifetime. Counted from before, the login's own wait for its turn (login.interval) would be counted too,
            // and a healthy backend's token sent back before its lifetime was out.
            let issued = await c.environment.clock.now()
            (tokens, token) = (login.tokens, fresh)
            expiresAt = issued + lifetime
        }
        let wait = max(0, expiresAt - (await c.environment.clock.now())) + leeway + 1
        guard wait <= c.environment.allowWait else {
            return [
                c.verdict(
                    "", .skipped,
                    Durations.waitNotAllowed("the expiry probe", seconds: wait, limit: c.environment.allowWait))
            ]
        }
        if let failed = await c.protectedControl(token, tokens: tokens) { return [failed] }
        c.environment.onWait("\(c.sessionName): waiting \(Durations.describe(wait)) for the access token to expire")
        await c.environment.clock.sleep(seconds: wait)
        return [
            c.refusal(
                check, await c.protectedAnswers(token: token, replacement: token, tokens: tokens),
                controlWhen: "before the wait, "
            ) { flow, state in
                .expiry(flow: flow, state: state, seconds: wait)
            }
        ]
    }
}

extension ProbeKind {
    package static let expiry = ProbeKind(ExpiryAttack.self)
}
