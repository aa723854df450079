import FlowSpecLanguage
import FlowSpecScenarios

/// How one probe ended.
package struct ProbeVerdict: Sendable {
    /// `held` and `broken` are the only verdicts that checked something. `error` is a check that could not be made
    /// because something it needs failed (the login, the logout, a refresh it builds on): a failure with its cause,
    /// never a skip. `skipped` is kept for reasons the user chose (an optional variable not given, a wait longer
    /// than `--allow-wait`); `notApplicable` for a promise not declared or a kind that does not apply.
    package enum Status: String, Sendable, Codable {
        case held, broken
        case error
        case notApplicable = "not_applicable"
        case skipped
    }

    package var session: String
    package var kind: ProbeKind
    /// The variant within the kind, e.g. "unsigned token (alg: none)".
    package var check: String
    package var status: Status
    /// What happened, in one sentence; for broken ones the evidence in words.
    package var detail: String
    /// Where the promise is stated (empty for universal probes that rest on RFC 6750 alone).
    package var source: String
    /// The exchanges that prove a broken verdict, masked.
    package var evidence: [ExchangeRecord] = []
    package var infrastructure = false
    /// How to reproduce it as a flow and a live scenario, where the flow language can express the attack.
    package var reproduction: Reproduction?
}

/// The moves of a probe, for writing a reproduction: what was sent, named by flows and states, never by values.
package enum Reproduction: Sendable {
    case rotation
    case reuseDetection(parentOfActiveGrace: Bool, reuseInterval: String?, revokesFamily: Bool)
    case logoutRevokes
    /// The protected flow's request `state`, with the session's access token replaced by `token`.
    case tokenSwap(flow: String, state: String, token: Token)
    /// The protected flow's request `state`, with the access token of another session, logged in with that session's
    /// probe file (`login` flow, `inputs`), whose store holds it under `accessKey`.
    case foreignToken(
        flow: String, state: String, session: String, login: String, accessKey: String, inputs: ScenarioInputs)
    /// `burst` refreshes at once with one refresh token: at most one may succeed — or, with a declared grace
    /// (`parentOfActiveGrace`), every success answers the same new refresh token.
    case atomicBurst(burst: Int, parentOfActiveGrace: Bool)
    /// The login flow's request `state` that redeemed the code, sent again right after it succeeded.
    case codeReplay(flow: String, state: String)
    /// The protected flow's request `state` with the session's own token, after waiting `seconds`.
    case expiry(flow: String, state: String, seconds: Double)
    /// The protected flow's request `state` with the session's own token, after the logout flow.
    case accessAfterLogout(flow: String, state: String)
}

extension Reproduction {
    /// What a token-swap probe sent instead of the session's access token, as the flow language writes it.
    package enum Token: Sendable {
        case literal(String)
        /// No token header at all.
        case absent
        /// The first half of the token: `slice(token, 0, len(token) / 2)`.
        case truncated
        /// `forge_jwt(token, way)`.
        case forged(JWTForgery)
    }
}
