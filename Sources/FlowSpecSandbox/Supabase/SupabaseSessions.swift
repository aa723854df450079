/// GoTrue sessions: an HS256 access token with GoTrue's claims and an opaque rotating refresh token.
struct SupabaseSessions: Sendable {
    let world: World

    private var settings: SandboxAccounts.Supabase { world.accounts.supabase }

    /// GoTrue refresh tokens do not expire by age (only with session time-boxes, which the sandbox has not).
    static let refreshLifetime: Double = 10 * 365 * 86400

    func sessionJSON(user: SupabaseState.User, sessionID: String, refreshToken: String, request: SandboxRequest) -> JSON {
        let expiresAt = WallClock.expiry(now: request.now, lifetime: settings.accessTokenLifetime)
        let issuer = "http://\(request.header("host") ?? "127.0.0.1")/auth/v1"
        let token = world.signers.supabase.sign([
            "aud": "authenticated", "exp": .int(expiresAt), "iat": .int(Int(request.now)), "iss": .string(issuer),
            "sub": .string(user.id), "email": "", "phone": .string(user.phone),
            "app_metadata": Self.appMetadata, "user_metadata": [:], "role": "authenticated", "aal": "aal1",
            "amr": [["method": "otp", "timestamp": .int(Int(request.now))]],
            "session_id": .string(sessionID), "is_anonymous": false,
        ])
        return [
            "access_token": .string(token), "token_type": "bearer",
            "expires_in": .int(WallClock.seconds(settings.accessTokenLifetime)), "expires_at": .int(expiresAt),
            "refresh_token": .string(refreshToken), "user": userJSON(user),
        ]
    }

    static let appMetadata: JSON = ["provider": "phone", "providers": ["phone"]]

    func userJSON(_ user: SupabaseState.User) -> JSON {
        let confirmed = user.phoneConfirmedAt.map { JSON.string(Outbox.timestamp($0)) } ?? .null
        return [
            "id": .string(user.id), "aud": "authenticated", "role": "authenticated", "email": "",
            "phone": .string(user.phone), "phone_confirmed_at": confirmed, "confirmed_at": confirmed,
            "last_sign_in_at": user.lastSignInAt.map { .string(Outbox.timestamp($0)) } ?? .null,
            "app_metadata": Self.appMetadata, "user_metadata": [:], "identities": [],
            "created_at": .string(Outbox.timestamp(user.createdAt)), "updated_at": .string(Outbox.timestamp(user.updatedAt)),
            "is_anonymous": false,
        ]
    }

    struct Authenticated: Sendable {
        let user: SupabaseState.User
        let sessionID: String
    }

    /// The user behind the bearer token: 401 `no_authorization` without one, 403 `bad_jwt` for an expired or
    /// bad token (401 under the `supabase-bad-jwt-401` break), 403 `session_not_found` once the session is gone.
    func authenticate(_ request: SandboxRequest, state: SupabaseState) throws(SupabaseError) -> Authenticated {
        guard let token = request.bearerToken else { throw .noAuthorization }
        let badJWTStatus = world.has(.supabaseBadJWT401) ? 401 : 403
        let claims: JSON
        switch world.signers.supabase.verify(token, now: request.now) {
        case .success(let value): claims = value
        case .failure(.expired):
            throw SupabaseError(status: badJWTStatus, code: "bad_jwt",
                                message: "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired")
        case .failure(.badSignature):
            throw SupabaseError(status: badJWTStatus, code: "bad_jwt",
                                message: "invalid JWT: unable to parse or verify signature, signature is invalid")
        case .failure(.malformed):
            throw SupabaseError(status: badJWTStatus, code: "bad_jwt",
                                message: "invalid JWT: unable to parse or verify signature, token is malformed")
        }
        guard let sessionID = claims.text("session_id"), state.sessions.isLive(sessionID) else {
            throw .sessionNotFound
        }
        guard let userID = claims.text("sub"), let user = state.user(id: userID) else {
            throw SupabaseError(status: 404, code: "user_not_found", message: "User from sub claim in JWT does not exist")
        }
        return Authenticated(user: user, sessionID: sessionID)
    }
}
