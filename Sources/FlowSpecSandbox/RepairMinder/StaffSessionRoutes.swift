/// Staff session endpoints (Repair Minder API, docs/systems/repairminder.md): refresh with rotation and reuse detection, /me, logout.
struct StaffSessionRoutes: Sendable {
    let world: World
    var sessions: StaffSessions { StaffSessions(world: world) }

    var routes: [Route] {
        [
            Route("POST", "/api/auth/refresh") { request, _ in try await refresh(request) },
            Route("GET", "/api/auth/me") { request, _ in try me(request) },
            Route("POST", "/api/auth/logout") { request, _ in try logout(request) },
        ]
    }

    func refresh(_ request: SandboxRequest) async throws -> Reply {
        let body = try request.repairMinderBody()
        guard let token = body.text("refreshToken") else { return .error(400, "Refresh token is required") }
        // Break `refresh-garbage-crashes`: a server that splits each refresh token into a fixed-width selector (the
        // lookup key) and a verifier, without checking the length first — a token too short to split (one cut in
        // half, a short garbage string) throws, and the error handler answers 500. Longer unknown tokens are
        // looked up and refused as usual.
        if world.has(.refreshGarbageCrashes), token.count <= Self.brokenSelectorLength {
            return .error(500, RepairMinderMessages.internalError)
        }
        let isMobile = sessions.isMobile(request)
        var policy = RefreshFamilies.Policy(
            rotate: !world.has(.noRefreshRotation),
            detectReuse: !world.has(.noReuseDetection),
            revokeFamilyOnReuse: !world.has(.familySurvivesReuse))
        // Break `non-atomic-rotation`: check, release the lock, then write on the strength of the stale check —
        // every refresh that checked inside the window rotates the family again (the last write wins), each
        // answering its own new token. A token already rotated out when checked still meets reuse detection.
        if world.has(.nonAtomicRotation), world.withState({ $0.staff.families.isCurrent(token) }) {
            await RaceWindow.wait()
            policy.detectReuse = false
        }
        return world.withState { state in
            let rotation = state.staff.families.rotate(
                token, lifetime: sessions.refreshLifetime(isMobile: isMobile),
                isMobile: isMobile, now: request.now, policy: policy)
            switch rotation {
            case .unknown, .revoked:
                return .error(401, RepairMinderMessages.invalidRefreshToken)
            case .reused:
                return .error(401, RepairMinderMessages.tokenReuse)
            case .expired:
                return .error(401, RepairMinderMessages.refreshTokenExpired)
            case .rotated(let family):
                guard let user = sessions.user(id: family.subject), sessions.canUseSession(user, in: state.staff) else {
                    state.staff.families.revoke(family.id)
                    return .error(401, RepairMinderMessages.noLongerActive)
                }
                return .ok([
                    "token": .string(
                        sessions.accessToken(for: user, sessionID: family.id, isMobile: isMobile, now: request.now)),
                    "refreshToken": .string(family.current),
                    "expiresIn": .int(WallClock.seconds(sessions.accessLifetime)),
                ])
            }
        }
    }

    /// The selector width of `refresh-garbage-crashes`: the sandbox's own refresh tokens are 43 characters.
    static let brokenSelectorLength = 32

    func me(_ request: SandboxRequest) throws -> Reply {
        try world.withState { state throws(Rejection) in
            let session = try sessions.authenticate(request, state: state.staff)
            if world.has(.quarantineBlocksMe), session.company.status.isQuarantined {
                return QuarantineGuard.refusal
            }
            var user = sessions.userJSON(session.user, state: state.staff)
            if world.has(.meDropsEmail) { user = user.removing("email") }
            return .ok([
                "user": user,
                "company": RepairMinderJSON.company(session.company),
                "hasPassword": .bool(session.user.password != nil),
            ])
        }
    }

    func logout(_ request: SandboxRequest) throws -> Reply {
        try world.withState { state throws(Rejection) in
            let session = try sessions.authenticate(request, state: state.staff)
            if !world.has(.logoutKeepsSession) {
                state.staff.families.revoke(session.sessionID)
            }
            return .ok(["success": true])
        }
    }
}
