import FlowSpecLanguage

/// Rotates (twice where the parent of the active token may be reused), waits out any reuse interval, presents the
/// rotated-out token, and then — where promised — the newest one. Revokes the family: the shared login ends here.
enum ReuseDetectionAttack: ProbeAttack {
    static let name = "reuse_detection"
    static let title = "refresh-token reuse detection"
    static let needs: Set<ProbeNeed> = [.refreshFlow]
    static let options = [
        ProbeOption("revokes_family", .boolean, "Then the newest token of the family is refused too."),
        ProbeOption(
            "grace", .word(["none", "parent_of_active"]),
            "`parent_of_active`: the token just rotated out may be reused (GoTrue)."),
        ProbeOption(
            "reuse_interval", .duration,
            "Seconds during which an old token is still swapped (template over run variables)."),
    ]
    static let sends =
        "rotates (twice with `grace: parent_of_active`), waits out `reuse_interval`, presents the first token again; with `revokes_family: true` then presents the newest"
    static let control = "the refresh flow accepted the same token moments before (the rotation that retired it)"
    static let heldWhen = "the old token is refused; then the newest is refused too"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        shared?.alive = false
        guard let tokens = shared?.tokens else { return c.noRefreshToken() }
        let grace = c.promise?.word("grace") == "parent_of_active"
        let family = c.promise?.bool("revokes_family") ?? false
        var interval = 0.0
        switch c.environment.requiredSeconds(c.promise?.duration("reuse_interval")) {
        case .failure(let problem)?: return [c.verdict("", .skipped, problem.message)]
        case .success(let seconds)?: interval = seconds
        case nil: break
        }
        if interval > 0, interval + 1 > c.environment.allowWait {
            return [
                c.verdict(
                    "", .skipped,
                    Durations.waitNotAllowed(
                        "the reuse interval", seconds: interval + 1, limit: c.environment.allowWait))
            ]
        }
        guard let first = c.refreshToken(tokens) else { return c.noRefreshToken() }
        let once = await c.probe.refresh(with: first, tokens: tokens)
        guard once.accepted, let second = once.refreshToken, second != first else {
            return [
                c.verdict(
                    "", .error,
                    once.accepted
                        ? "not checked: the refresh did not rotate the token, so there is no old token to reuse (see the rotation probe)"
                        : "not checked: the control failed: the refresh flow refused the session's fresh refresh token: \(once.result.outcome): \(once.result.reason)"
                )
            ]
        }
        var newest = (second, once.tokens)
        if grace {
            // The parent of the active token may be reused by design: rotate once more so the reused one is older.
            let twice = await c.probe.refresh(with: second, tokens: once.tokens)
            guard twice.accepted, let third = twice.refreshToken, third != second else {
                return [
                    c.verdict(
                        "", .error, "not checked: the second refresh did not rotate the token: \(twice.result.outcome)")
                ]
            }
            newest = (third, twice.tokens)
        }
        if interval > 0 {
            c.environment.onWait("\(c.sessionName): waiting \(Durations.describe(interval + 1)) for the reuse interval")
            await c.environment.clock.sleep(seconds: interval + 1)
        }
        let reproduction = Reproduction.reuseDetection(
            parentOfActiveGrace: grace, reuseInterval: c.promise?.duration("reuse_interval")?.source,
            revokesFamily: family)
        let reused = await c.probe.refresh(with: first, tokens: tokens)
        if reused.accepted {
            return [
                c.verdict(
                    "rotated-out token", .broken, "a rotated-out refresh token was accepted again",
                    evidence: reused.log, reproduction: reproduction)
            ]
        }
        var verdicts = [
            c.verdict(
                "rotated-out token", .held,
                "a rotated-out refresh token was refused; the control: the refresh flow accepted it moments before, when it rotated"
            )
        ]
        if family {
            // Revoking the family revokes the newest token now, and within the reuse interval a revoked token is
            // still swapped (GoTrue): present it only after the interval.
            if interval > 0 { await c.environment.clock.sleep(seconds: interval + 1) }
            let afterwards = await c.probe.refresh(with: newest.0, tokens: newest.1)
            verdicts.append(
                afterwards.accepted
                    ? c.verdict(
                        "family revoked", .broken,
                        "after the reuse, the newest refresh token of the family still works",
                        evidence: reused.log + afterwards.log,
                        reproduction: reproduction)
                    : c.verdict(
                        "family revoked", .held,
                        "after the reuse, the newest refresh token is refused too; the control: it was issued by an accepted refresh just before"
                    ))
        }
        return verdicts
    }
}

extension ProbeKind {
    package static let reuseDetection = ProbeKind(ReuseDetectionAttack.self)
}
