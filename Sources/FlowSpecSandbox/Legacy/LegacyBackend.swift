/// The older Repair Minder backend (docs/systems/repairminder-legacy.md), on its own port: one `/api/auth/login` that takes an
/// optional `twoFactorToken`, inside the `{success, data, error}` envelope. Refresh, me and logout are
/// there too, in the same envelope, because the legacy app calls them (docs/systems/repairminder-legacy.md, Endpoints) (shapes inferred from its
/// `RefreshResponse` and `MeResponse`).
struct LegacyBackend: Sendable {
    let world: World

    private var table: RouteTable {
        RouteTable(routes: [
            Route("POST", "/api/auth/login") { request, _ in login(request) },
            Route("POST", "/api/auth/refresh") { request, _ in refresh(request) },
            Route("GET", "/api/auth/me") { request, _ in me(request) },
            Route("POST", "/api/auth/logout") { request, _ in logout(request) },
        ])
    }

    func respond(to request: SandboxRequest) async -> Reply {
        switch await table.dispatch(request) {
        case .handled(let reply): return reply
        case .wrongMethod: return LegacyJSON.failure(405, "Method not allowed")
        case .noRoute: return LegacyJSON.failure(404, "Not found")
        }
    }

    private var lifetimes: SandboxAccounts.Lifetimes { world.accounts.lifetimes }

    func login(_ request: SandboxRequest) -> Reply {
        guard case .success(let body) = request.jsonObject() else {
            return LegacyJSON.failure(400, "Invalid JSON body")
        }
        guard let email = body.text("email"), let password = body["password"]?.stringValue, !password.isEmpty else {
            return LegacyJSON.failure(400, "Email and password are required")
        }
        guard let user = world.accounts.legacy.users.first(where: { $0.email.lowercased() == email.lowercased() }),
            user.password == password
        else { return LegacyJSON.failure(401, "Invalid email or password") }
        let twoFactorToken = body.text("twoFactorToken")
        return world.withState { state in
            switch user.login {
            case .password:
                return LegacyJSON.success(signIn(user, request: request, state: &state.legacy))
            case .magicLink:
                let code = Secrets.sixDigitCode()
                state.outbox.send(
                    to: user.email, channel: .email, code: code, subject: "Your Repair Minder login link",
                    now: request.now)
                return LegacyJSON.success([
                    "requiresMagicLink": true, "email": .string(user.email),
                    "message": "Magic link sent",
                ])
            case .twoFactor:
                if world.has(.legacyTwoFactorOptional) {
                    return LegacyJSON.success(signIn(user, request: request, state: &state.legacy))
                }
                guard let twoFactorToken else {
                    let code = state.legacy.codes.issue(for: user.id, lifetime: lifetimes.code, now: request.now)
                    state.outbox.send(
                        to: user.email, channel: .email, code: code,
                        subject: "Your Repair Minder verification code", now: request.now)
                    return LegacyJSON.success([
                        "requiresTwoFactor": true, "userId": .string(user.id),
                        "email": .string(user.email),
                    ])
                }
                guard
                    state.legacy.codes.redeem(
                        twoFactorToken, for: user.id, now: request.now,
                        consume: !world.has(.codesReusable))
                else { return LegacyJSON.failure(401, "Invalid verification code") }
                return LegacyJSON.success(signIn(user, request: request, state: &state.legacy))
            }
        }
    }

    private func signIn(_ user: SandboxAccounts.LegacyUser, request: SandboxRequest, state: inout LegacyState) -> JSON {
        let isMobile = MobileUserAgent.matches(request.userAgent)
        let family = state.families.start(
            subject: user.id, lifetime: refreshLifetime(isMobile: isMobile),
            isMobile: isMobile, now: request.now)
        return [
            "token": .string(accessToken(user, sessionID: family.id, now: request.now)),
            "refreshToken": .string(family.current),
            "expiresIn": .int(WallClock.seconds(lifetimes.accessToken)),
            "user": LegacyJSON.user(user, company: world.accounts.company(id: user.companyID), lastLogin: request.now),
            "company": world.accounts.company(id: user.companyID).map(LegacyJSON.company) ?? .null,
        ]
    }

    private func refreshLifetime(isMobile: Bool) -> Double {
        isMobile ? lifetimes.refreshTokenMobile : lifetimes.refreshTokenWeb
    }

    private func accessToken(_ user: SandboxAccounts.LegacyUser, sessionID: String, now: Double) -> String {
        world.signers.legacy.sign([
            "userId": .string(user.id), "companyId": .string(user.companyID), "role": .string(user.role),
            "sessionId": .string(sessionID),
            "iat": .int(Int(now)), "exp": .int(WallClock.expiry(now: now, lifetime: lifetimes.accessToken)),
        ])
    }

    func refresh(_ request: SandboxRequest) -> Reply {
        guard case .success(let body) = request.jsonObject() else {
            return LegacyJSON.failure(400, "Invalid JSON body")
        }
        guard let token = body.text("refreshToken") else { return LegacyJSON.failure(400, "Refresh token is required") }
        let isMobile = MobileUserAgent.matches(request.userAgent)
        return world.withState { state in
            switch state.legacy.families.rotate(
                token, lifetime: refreshLifetime(isMobile: isMobile), isMobile: isMobile,
                now: request.now)
            {
            case .unknown, .revoked: return LegacyJSON.failure(401, RepairMinderMessages.invalidRefreshToken)
            case .reused: return LegacyJSON.failure(401, RepairMinderMessages.tokenReuse)
            case .expired: return LegacyJSON.failure(401, RepairMinderMessages.refreshTokenExpired)
            case .rotated(let family):
                guard let user = world.accounts.legacy.users.first(where: { $0.id == family.subject }) else {
                    return LegacyJSON.failure(401, RepairMinderMessages.invalidRefreshToken)
                }
                return LegacyJSON.success([
                    "token": .string(accessToken(user, sessionID: family.id, now: request.now)),
                    "refreshToken": .string(family.current),
                    "expiresIn": .int(WallClock.seconds(lifetimes.accessToken)),
                ])
            }
        }
    }

    func me(_ request: SandboxRequest) -> Reply {
        world.withState { state in
            switch authenticate(request, state: state.legacy) {
            case .failure(let refused): return refused.reply
            case .success((let user, _)):
                let company = world.accounts.company(id: user.companyID)
                return LegacyJSON.success([
                    "user": LegacyJSON.user(user, company: company, lastLogin: nil),
                    "company": company.map(LegacyJSON.company) ?? .null,
                ])
            }
        }
    }

    func logout(_ request: SandboxRequest) -> Reply {
        world.withState { state in
            switch authenticate(request, state: state.legacy) {
            case .failure(let refused): return refused.reply
            case .success((_, let sessionID)):
                state.legacy.families.revoke(sessionID)
                return LegacyJSON.success(nil)
            }
        }
    }

    private struct Refused: Error { let reply: Reply }

    private func authenticate(_ request: SandboxRequest, state: LegacyState)
        -> Result<(SandboxAccounts.LegacyUser, String), Refused>
    {
        guard let token = request.bearerToken else {
            return .failure(Refused(reply: LegacyJSON.failure(401, RepairMinderMessages.authenticationRequired)))
        }
        switch world.signers.legacy.verify(token, now: request.now) {
        case .failure(.expired):
            return .failure(Refused(reply: LegacyJSON.failure(401, RepairMinderMessages.tokenExpired)))
        case .failure:
            return .failure(Refused(reply: LegacyJSON.failure(401, RepairMinderMessages.invalidToken)))
        case .success(let claims):
            guard let userID = claims.text("userId"),
                let user = world.accounts.legacy.users.first(where: { $0.id == userID }),
                let sessionID = claims.text("sessionId"), state.families.isLive(sessionID)
            else { return .failure(Refused(reply: LegacyJSON.failure(401, RepairMinderMessages.invalidToken))) }
            return .success((user, sessionID))
        }
    }
}
