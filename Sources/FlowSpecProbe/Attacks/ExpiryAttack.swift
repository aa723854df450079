import FlowSpecLanguage

/// The session's own access token again, after its `exp`.
enum ExpiryAttack: ProbeAttack {
    static let name = "expiry"
    static let title = "expired access token"
    static let options = [ProbeOption("leeway", .duration, "Seconds of clock skew the backend may allow past `exp`.")]
    static let sends = "the session's token again after its `exp` (plus `leeway`)"
    static let control = "the same token was accepted before the wait"
    static let heldWhen = "refused. *skipped* when that is further away than `--allow-wait` (default 60 s)"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let tokens = shared?.tokens, let token = c.accessToken(tokens), let expiresAt = JWT.expiry(of: token) else {
            return [c.verdict("", .notApplicable, "the access token is not a JWT with an `exp` claim")]
        }
        var leeway = 0.0
        switch c.environment.requiredSeconds(c.promise?.duration("leeway")) {
        case .failure(let problem)?: return [c.verdict("", .skipped, problem.message)]
        case .success(let seconds)?: leeway = seconds
        case nil: break
        }
        let wait = max(0, expiresAt - (await c.environment.clock.now())) + leeway + 1
        guard wait <= c.environment.allowWait else {
            return [c.verdict("", .skipped, Durations.waitNotAllowed("the expiry probe", seconds: wait, limit: c.environment.allowWait))]
        }
        if let failed = await c.protectedControl(token, tokens: tokens) { return [failed] }
        c.environment.onWait("\(c.sessionName): waiting \(Durations.describe(wait)) for the access token to expire")
        await c.environment.clock.sleep(seconds: wait)
        var found = c.refusal("past its exp", await c.protectedAnswers(token: token, replacement: token, tokens: tokens)) { flow, state in
            .expiry(flow: flow, state: state, seconds: wait)
        }
        if found.status == .held { found.detail = found.detail.replacingOccurrences(of: "; the control:", with: "; the control: before the wait,") }
        return [found]
    }
}

extension ProbeKind {
    public static let expiry = ProbeKind(ExpiryAttack.self)
}
