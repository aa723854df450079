import FlowSpecLanguage

/// After the logout flow, the session's refresh token no longer refreshes.
enum LogoutRevokesAttack: ProbeAttack {
    static let name = "logout_revokes"
    static let title = "logout revokes the refresh token"
    static let needs: Set<ProbeNeed> = [.logoutFlow, .refreshFlow]
    static let stage = ProbeStage.own
    static let sends =
        "on a login of its own: a refresh, the logout flow, then the refresh flow with the refresh token from before logout"
    static let control =
        "the refresh just before logout succeeds, and the logout request is answered as declared (`logout.answers`, default 2xx)"
    static let heldWhen = "the refresh after logout is refused"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        await c.withLogin { login in
            guard let first = c.refreshToken(login.tokens) else { return c.noRefreshToken() }
            let control = await c.probe.refresh(with: first, tokens: login.tokens)
            guard control.accepted else {
                return [c.freshRefreshRefused(control)]
            }
            let tokens = control.tokens
            guard let token = c.refreshToken(tokens) else { return c.noRefreshToken() }
            let logout = await c.logOut(tokens)
            if let failed = logout.failed { return [failed] }
            let after = await c.probe.refresh(with: token, tokens: tokens)
            return [
                after.accepted
                    ? c.verdict(
                        "", .broken, "the refresh token still works after logout", evidence: logout.log + after.log,
                        reproduction: .logoutRevokes)
                    : c.verdict(
                        "", .held,
                        "after logout the refresh token is refused; the control: it refreshed just before the logout")
            ]
        }
    }
}

extension ProbeKind {
    package static let logoutRevokes = ProbeKind(LogoutRevokesAttack.self)
}
