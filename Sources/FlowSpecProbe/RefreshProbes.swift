import Foundation
import FlowSpecLanguage
import FlowSpecRuntime

/// Probes of the refresh token's life — rotation, concurrency, reuse, logout — and of one-time codes.
/// Those that keep the session alive hand the next probe the tokens they leave (nil: the session is gone).
extension ProbeCheck {
    func rotation(_ tokens: [String: JSONValue]) async -> ([ProbeVerdict], [String: JSONValue]?) {
        guard let first = refreshToken(tokens) else { return (noRefreshToken(), tokens) }
        let refreshed = await probe.refresh(with: first, tokens: tokens)
        guard refreshed.accepted else {
            return ([verdict("", .broken, "a fresh refresh token was refused: \(refreshed.result.outcome): \(refreshed.result.reason)", evidence: refreshed.log)], nil)
        }
        guard let next = refreshed.refreshToken, next != first else {
            // Say what was seen: a backend that sends the token back differs from one that sends none (rotation off
            // in simplejwt answers only an access token, and the refresh flow keeps the one it had).
            let echoed = refreshed.log.contains { entry in entry.response.map { String(decoding: $0.body, as: UTF8.self).contains(first) } ?? false }
            let what = echoed ? "the refresh answered the same refresh token again"
                : "the refresh answered no new refresh token: after it, the store still holds the refresh token it sent"
            return ([verdict("", .broken, what, evidence: refreshed.log, reproduction: .rotation)], refreshed.tokens)
        }
        return ([verdict("", .held, "the refresh answered a new refresh token")], refreshed.tokens)
    }

    /// The session's tokens after one more refresh, or nil when the family no longer refreshes.
    func stillRefreshes(_ tokens: [String: JSONValue]) async -> [String: JSONValue]? {
        guard let token = refreshToken(tokens) else { return nil }
        let refreshed = await probe.refresh(with: token, tokens: tokens)
        return refreshed.accepted ? refreshed.tokens : nil
    }

    func atomicRotation(_ tokens: [String: JSONValue], _ promise: ProbeDeclaration.Promise) async -> ([ProbeVerdict], [String: JSONValue]?) {
        guard let token = refreshToken(tokens) else { return (noRefreshToken(), tokens) }
        let burst = promise.burst
        let attempts = await withTaskGroup(of: ProbeSession.Refresh.self) { group in
            // Truly at once: on Swift's global executor, not one after another on the live client's thread.
            for _ in 0..<burst { group.addTask(executorPreference: globalConcurrentExecutor) { await probe.refresh(with: token, tokens: tokens) } }
            var all: [ProbeSession.Refresh] = []
            for await attempt in group { all.append(attempt) }
            return all
        }
        let accepted = attempts.filter(\.accepted)
        let issued = Set(accepted.compactMap(\.refreshToken))
        let next = accepted.first?.tokens
        if accepted.count <= 1 {
            return ([verdict("", .held, "\(accepted.count) of \(burst) concurrent refreshes with one token succeeded")], next)
        }
        if promise.parentOfActiveGrace, issued.count == 1 {
            return ([verdict("", .held, "\(accepted.count) of \(burst) concurrent refreshes succeeded, all answering the same new token (the declared grace)")], next)
        }
        let handedOut = issued.count == 1 ? "all answering the same refresh token" : "handing out \(issued.count) different refresh tokens"
        return ([verdict("", .broken, "\(accepted.count) of \(burst) concurrent refreshes with one token succeeded, \(handedOut)",
                         evidence: accepted.flatMap(\.log), reproduction: .atomicBurst(burst: burst, parentOfActiveGrace: promise.parentOfActiveGrace))], next)
    }

    /// Rotates (twice where the parent of the active token may be reused), waits out any reuse interval, presents
    /// the rotated-out token, and then — where promised — the newest one. Revokes the family: the chain ends here.
    func reuseDetection(_ tokens: [String: JSONValue], _ promise: ProbeDeclaration.Promise) async -> [ProbeVerdict] {
        var interval = 0.0
        switch environment.requiredSeconds(promise.reuseInterval) {
        case .failure(let problem)?: return [verdict("", .skipped, problem.message)]
        case .success(let seconds)?: interval = seconds
        case nil: break
        }
        if interval > 0, interval + 1 > environment.allowWait {
            return [verdict("", .skipped, Durations.waitNotAllowed("the reuse interval", seconds: interval + 1, limit: environment.allowWait))]
        }
        guard let first = refreshToken(tokens) else { return noRefreshToken() }
        let once = await probe.refresh(with: first, tokens: tokens)
        guard once.accepted, let second = once.refreshToken, second != first else {
            return [verdict("", .error, "not checked: the refresh did not rotate the token, so there is no old token to reuse (see the rotation probe)")]
        }
        var newest = (second, once.tokens)
        if promise.parentOfActiveGrace {
            // The parent of the active token may be reused by design: rotate once more so the reused one is older.
            let twice = await probe.refresh(with: second, tokens: once.tokens)
            guard twice.accepted, let third = twice.refreshToken, third != second else {
                return [verdict("", .error, "not checked: the second refresh did not rotate the token: \(twice.result.outcome)")]
            }
            newest = (third, twice.tokens)
        }
        if interval > 0 {
            environment.onWait("\(sessionName): waiting \(Durations.describe(interval + 1)) for the reuse interval")
            await environment.clock.sleep(seconds: interval + 1)
        }
        let reused = await probe.refresh(with: first, tokens: tokens)
        if reused.accepted {
            return [verdict("rotated-out token", .broken, "a rotated-out refresh token was accepted again", evidence: reused.log,
                            reproduction: reuseReproduction(promise))]
        }
        var verdicts = [verdict("rotated-out token", .held, "a rotated-out refresh token was refused")]
        if promise.revokesFamily {
            // Revoking the family revokes the newest token now, and within the reuse interval a revoked token is
            // still swapped (GoTrue): present it only after the interval.
            if interval > 0 { await environment.clock.sleep(seconds: interval + 1) }
            let afterwards = await probe.refresh(with: newest.0, tokens: newest.1)
            verdicts.append(afterwards.accepted
                ? verdict("family revoked", .broken, "after the reuse, the newest refresh token of the family still works", evidence: reused.log + afterwards.log,
                          reproduction: reuseReproduction(promise))
                : verdict("family revoked", .held, "after the reuse, the newest refresh token is refused too"))
        }
        return verdicts
    }

    func logoutRevokes(_ login: ProbeSession.Login) async -> [ProbeVerdict] {
        guard let token = refreshToken(login.tokens) else { return noRefreshToken() }
        let logout = await probe.logout(tokens: login.tokens)
        guard logout.result.success else {
            return [verdict("", .error, "not checked: the logout flow ended `\(logout.result.outcome)`: \(logout.result.reason)",
                            infrastructure: logout.result.isInfrastructureFailure)]
        }
        // A logout the backend refused (an access token that expired meanwhile) revoked nothing, so proves nothing.
        if let refused = logout.log.last(where: { $0.request.headers.contains { $0.1.contains(accessToken(login.tokens) ?? "\u{0}") } })?.response,
           !(200..<300).contains(refused.status) {
            return [verdict("", .error, "not checked: the logout request was answered \(refused.status), so it ended nothing to check")]
        }
        let after = await probe.refresh(with: token, tokens: login.tokens)
        return [after.accepted
            ? verdict("", .broken, "the refresh token still works after logout", evidence: logout.log + after.log, reproduction: .logoutRevokes)
            : verdict("", .held, "after logout the refresh token is refused")]
    }

    /// Replays the very request that redeemed the code, right after it succeeded: a single-use code is refused.
    /// (Logging in again would ask for a new code, which may retire the old one for another reason.)
    func oneTimeCodes(_ login: ProbeSession.Login) async -> [ProbeVerdict] {
        guard !login.codes.isEmpty else { return [verdict("", .notApplicable, "the login flow asks for no input of type `code`")] }
        let codes = Set(login.codes.values)
        guard let redeeming = login.log.last(where: { entry in
            guard let status = entry.response?.status, (200..<300).contains(status) else { return false }
            return codes.contains { code in Self.carries(entry.request, code) }
        }) else {
            return [verdict("", .error, "not checked: no successful request of the login carried the code")]
        }
        do throws(TransportError) {
            let again = try await environment.adapter.send(redeeming.request)
            let entry = ExchangeLog.Entry(flow: redeeming.flow, state: redeeming.state, request: redeeming.request, response: again, failure: nil)
            if (200..<300).contains(again.status) {
                // The probe replays the request exactly, cookies included. A flow that sends the state again carries the
                // cookies its run holds by then — the ones the redeeming answer set (Flask's signed-in session, which
                // makes the server ask for a CSRF token) — so its replay would be refused for another reason and the
                // reproduction would pass where the promise is broken: none is written then.
                let setCookies = redeeming.response?.headers.contains { HeaderName.same($0.0, "Set-Cookie") } ?? false
                return [verdict("", .broken, "the request that redeemed the code was accepted again (\(again.status))", evidence: [redeeming, entry],
                                reproduction: setCookies ? nil : .codeReplay(flow: redeeming.flow, state: redeeming.state))]
            }
            return [verdict("", .held, "the request that redeemed the code was refused the second time (\(again.status))")]
        } catch {
            return [verdict("", .error, "not checked: replaying the code: no answer: \(error.kind.rawValue)", infrastructure: true)]
        }
    }

    func reuseReproduction(_ promise: ProbeDeclaration.Promise) -> Reproduction {
        .reuseDetection(parentOfActiveGrace: promise.parentOfActiveGrace, reuseInterval: promise.reuseInterval?.source, revokesFamily: promise.revokesFamily)
    }

    static func carries(_ request: HTTPRequest, _ code: String) -> Bool {
        if request.query.contains(where: { $0.1 == code }) || request.form?.contains(where: { $0.1 == code }) == true { return true }
        guard let body = request.body else { return false }
        return String(decoding: body, as: UTF8.self).contains(code)
    }
}
