import FlowSpecLanguage

/// Concurrent refreshes with one refresh token: at most one may succeed.
enum AtomicRotationAttack: ProbeAttack {
    static let name = "atomic_rotation"
    static let title = "atomic rotation under concurrency"
    static let needs: Set<ProbeNeed> = [.refreshFlow]
    static let options = [
        ProbeOption("burst", .integer(2...20), "How many concurrent refreshes (default 5)."),
        ProbeOption(
            "grace", .word(["none", "parent_of_active"]),
            "`parent_of_active`: the token just rotated out may be reused (GoTrue)."),
    ]
    static let sends = "`burst` concurrent refreshes with one refresh token"
    static let control = "at least one of them succeeds (none: an ERROR)"
    static let heldWhen =
        "at most one succeeds — or, with `grace: parent_of_active`, every success answers the same new token"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let tokens = shared?.tokens, let token = c.refreshToken(tokens) else { return c.noRefreshToken() }
        let burst = c.promise?.int("burst") ?? 5
        let grace = c.promise?.word("grace") == "parent_of_active"
        let probe = c.probe
        let attempts = await withTaskGroup(of: ProbeSession.Refresh.self) { group in
            // Truly at once: on Swift's global executor, not one after another on the live client's thread.
            for _ in 0..<burst {
                group.addTask(executorPreference: globalConcurrentExecutor) {
                    await probe.refresh(with: token, tokens: tokens)
                }
            }
            var all: [ProbeSession.Refresh] = []
            for await attempt in group { all.append(attempt) }
            return all
        }
        let accepted = attempts.filter(\.accepted)
        let issued = Set(accepted.compactMap(\.refreshToken))
        // Refused duplicates may have revoked the family, as reuse detection should: see if it still refreshes.
        if let next = accepted.first?.tokens, let still = await c.stillRefreshes(next) {
            shared?.tokens = still
        } else {
            shared?.alive = false
        }
        if accepted.isEmpty {
            let reason = attempts.first.map { "\($0.result.outcome): \($0.result.reason)" } ?? ""
            return [
                c.verdict(
                    "", .error,
                    "not checked: the control failed: none of \(burst) concurrent refreshes with the session's own refresh token succeeded (\(reason))",
                    infrastructure: attempts.contains { $0.result.isInfrastructureFailure })
            ]
        }
        if accepted.count == 1 {
            return [c.verdict("", .held, "1 of \(burst) concurrent refreshes with one token succeeded")]
        }
        if grace, issued.count == 1 {
            return [
                c.verdict(
                    "", .held,
                    "\(accepted.count) of \(burst) concurrent refreshes succeeded, all answering the same new token (the declared grace)"
                )
            ]
        }
        let handedOut =
            issued.count == 1
            ? "all answering the same refresh token" : "handing out \(issued.count) different refresh tokens"
        return [
            c.verdict(
                "", .broken,
                "\(accepted.count) of \(burst) concurrent refreshes with one token succeeded, \(handedOut)",
                evidence: accepted.flatMap(\.log), reproduction: .atomicBurst(burst: burst, parentOfActiveGrace: grace))
        ]
    }
}

extension ProbeKind {
    package static let atomicRotation = ProbeKind(AtomicRotationAttack.self)
}
