/// The Traveling backend (docs/systems/traveling.md) under `/v1`: login, refresh, me, every answer in `{"data": …}`.
/// Errors use the NestJS shape the scenarios assume (`{"statusCode", "message", "error"}`), and an expired
/// or bad access token is a 401 so the client's refresh-on-401 interceptor runs.
struct TravelingBackend: Sendable {
    let world: World

    private var settings: SandboxAccounts.Traveling { world.accounts.traveling }
    private var table: RouteTable {
        RouteTable(routes: [
            Route("POST", "/v1/auth/login") { request, _ in login(request) },
            Route("POST", "/v1/auth/refresh") { request, _ in refresh(request) },
            Route("GET", "/v1/auth/me") { request, _ in me(request) },
        ])
    }

    func respond(to request: SandboxRequest) async -> Reply? {
        guard request.path.hasPrefix("/v1/") else { return nil }
        switch await table.dispatch(request) {
        case .handled(let reply): return reply
        case .wrongMethod, .noRoute:
            return Self.error(404, "Cannot \(request.method) \(request.path)", "Not Found")
        }
    }

    static func error(_ status: Int, _ message: String, _ error: String?) -> Reply {
        var body: [String: JSON] = ["statusCode": .int(status), "message": .string(message)]
        if let error { body["error"] = .string(error) }
        return .json(status, .object(body))
    }

    private static let unauthorized = error(401, "Unauthorized", nil)
    private static let invalidRefreshToken = error(401, "Invalid refresh token", "Unauthorized")

    private func data(_ payload: JSON) -> Reply {
        .ok(world.has(.travelingNoEnvelope) ? payload : ["data": payload])
    }

    func login(_ request: SandboxRequest) -> Reply {
        guard case .success(let body) = request.jsonObject() else {
            return Self.error(400, "Unexpected token in JSON", "Bad Request")
        }
        guard let email = body.text("email"), email.contains("@") else {
            return Self.error(400, "email must be an email", "Bad Request")
        }
        guard let password = body["password"]?.stringValue, password.count >= 8 else {
            return Self.error(400, "password must be longer than or equal to 8 characters", "Bad Request")
        }
        guard let user = settings.users.first(where: { $0.email.lowercased() == email.lowercased() }),
            user.password == password
        else { return Self.error(401, "Invalid email or password", "Unauthorized") }
        let family = world.withState { state in
            state.traveling.families.start(
                subject: String(user.id), lifetime: settings.refreshTokenLifetime,
                isMobile: false, now: request.now)
        }
        return data([
            "user": [
                "id": .int(user.id), "email": .string(user.email), "firstName": .string(user.firstName),
                "lastName": .string(user.lastName),
            ],
            "accessToken": .string(accessToken(for: user, now: request.now)),
            "refreshToken": .string(refreshToken(family, now: request.now)),
        ])
    }

    func refresh(_ request: SandboxRequest) -> Reply {
        guard case .success(let body) = request.jsonObject() else {
            return Self.error(400, "Unexpected token in JSON", "Bad Request")
        }
        guard let presented = body.text("refreshToken") else {
            return Self.error(400, "refreshToken must be a string", "Bad Request")
        }
        if world.has(.travelingRefreshBroken) { return Self.invalidRefreshToken }
        // The refresh token is a JWT around the family's opaque token: checked first, then rotated.
        guard case .success(let claims) = world.signers.traveling.verify(presented, now: request.now),
            claims.text("typ") == "refresh", let inner = claims.text("jti")
        else { return Self.invalidRefreshToken }
        // The Traveling API says nothing about reuse detection (docs/systems/traveling.md, Not Documented): a rotated-out token is simply refused.
        let policy = RefreshFamilies.Policy(rotate: true, detectReuse: true, revokeFamilyOnReuse: false)
        let rotation = world.withState { state in
            state.traveling.families.rotate(
                inner, lifetime: settings.refreshTokenLifetime, isMobile: false,
                now: request.now, policy: policy)
        }
        guard case .rotated(let family) = rotation,
            let user = settings.users.first(where: { String($0.id) == family.subject })
        else { return Self.invalidRefreshToken }
        return data([
            "accessToken": .string(accessToken(for: user, now: request.now)),
            "refreshToken": .string(refreshToken(family, now: request.now)),
        ])
    }

    func me(_ request: SandboxRequest) -> Reply {
        guard let token = request.bearerToken,
            case .success(let claims) = world.signers.traveling.verify(
                token, now: request.now, checkExpiry: !world.has(.travelingAcceptsExpiredToken)),
            claims.text("typ") == "access",
            let user = settings.users.first(where: { String($0.id) == claims.text("sub") })
        else { return Self.unauthorized }
        return data([
            "user": [
                "email": .string(user.email), "firstName": .string(user.firstName),
                "lastName": .string(user.lastName), "id": .string(String(user.id)),
            ]
        ])
    }

    private func accessToken(for user: SandboxAccounts.TravelingUser, now: Double) -> String {
        world.signers.traveling.sign([
            "sub": .string(String(user.id)), "email": .string(user.email), "typ": "access",
            "iat": .int(Int(now)), "exp": .int(WallClock.expiry(now: now, lifetime: settings.accessTokenLifetime)),
        ])
    }

    private func refreshToken(_ family: RefreshFamilies.Family, now: Double) -> String {
        world.signers.traveling.sign([
            "sub": .string(family.subject), "typ": "refresh", "jti": .string(family.current),
            "iat": .int(Int(now)), "exp": .int(Int(family.expiresAt.rounded(.down))),
        ])
    }
}
