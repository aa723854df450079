import FlowSpecLanguage

/// The refresh flow with the fresh refresh token: it must answer a different one.
enum RotationAttack: ProbeAttack {
    static let name = "rotation"
    static let title = "refresh rotation"
    static let needs: Set<ProbeNeed> = [.refreshFlow]
    static let sends = "the refresh flow with the fresh refresh token"
    static let control = "the refresh itself succeeds (a refused refresh is an ERROR: it proves nothing about rotation)"
    static let heldWhen = "it succeeds and stores a **different** refresh token"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let tokens = shared?.tokens, let first = c.refreshToken(tokens) else { return c.noRefreshToken() }
        let refreshed = await c.probe.refresh(with: first, tokens: tokens)
        guard refreshed.accepted else {
            shared?.alive = false
            return [c.freshRefreshRefused(refreshed)]
        }
        shared?.tokens = refreshed.tokens
        guard let next = refreshed.refreshToken, next != first else {
            // Say what was seen: a backend that sends the token back differs from one that sends none (rotation off
            // in simplejwt answers only an access token, and the refresh flow keeps the one it had).
            let echoed = refreshed.log.contains { entry in
                entry.response.map { String(decoding: $0.body, as: UTF8.self).contains(first) } ?? false
            }
            let what =
                echoed
                ? "the refresh answered the same refresh token again"
                : "the refresh answered no new refresh token: after it, the store still holds the refresh token it sent"
            return [c.verdict("", .broken, what, evidence: refreshed.log, reproduction: .rotation)]
        }
        return [c.verdict("", .held, "the refresh answered a new refresh token")]
    }
}

extension ProbeKind {
    package static let rotation = ProbeKind(RotationAttack.self)
}
