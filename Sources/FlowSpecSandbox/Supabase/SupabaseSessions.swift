/// GoTrue sessions: an HS256 access token with GoTrue's claims, the session and user JSON, and
/// `requireAuthentication` (github.com/supabase/auth, internal/api/auth.go).
struct SupabaseSessions: Sendable {
    let world: World

    private var settings: SandboxAccounts.Supabase { world.accounts.supabase }

    func sessionJSON(user: SupabaseState.User, sessionID: String, refreshToken: String, request: SandboxRequest) -> JSON
    {
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

    /// GoTrue's `models.User` as JSON: unset timestamps are left out (`omitempty`), `email` is `""`, and the one
    /// `phone` identity created at sign-up is listed.
    func userJSON(_ user: SupabaseState.User) -> JSON {
        let created = JSON.string(Outbox.timestamp(user.createdAt))
        let identity: JSON = [
            "identity_id": .string(user.identityID), "id": .string(user.id), "user_id": .string(user.id),
            "identity_data": ["sub": .string(user.id), "email_verified": false, "phone_verified": false],
            "provider": "phone", "last_sign_in_at": created, "created_at": created, "updated_at": created,
        ]
        var fields: [String: JSON] = [
            "id": .string(user.id), "aud": "authenticated", "role": "authenticated", "email": "",
            "phone": .string(user.phone), "app_metadata": Self.appMetadata, "user_metadata": [:],
            "identities": [identity], "created_at": created,
            "updated_at": .string(Outbox.timestamp(user.updatedAt)), "is_anonymous": false,
        ]
        let optional: [(String, Double?)] = [
            ("confirmation_sent_at", user.confirmationSentAt), ("phone_confirmed_at", user.phoneConfirmedAt),
            ("confirmed_at", user.phoneConfirmedAt), ("last_sign_in_at", user.lastSignInAt),
        ]
        for (key, value) in optional { if let value { fields[key] = .string(Outbox.timestamp(value)) } }
        return .object(fields)
    }

    struct Authenticated: Sendable {
        let user: SupabaseState.User
        let sessionID: String
    }

    /// The user behind the bearer token, in GoTrue's order: 401 `no_authorization` without one; 403 `bad_jwt`
    /// for an expired or bad token (401 under the `supabase-bad-jwt-401` break); the user (403 `user_not_found`),
    /// then the session (403 `session_not_found` once logout deleted it; not looked up under the
    /// `supabase-logout-keeps-access-token` break).
    func authenticate(_ request: SandboxRequest, state: SupabaseState) throws(SupabaseError) -> Authenticated {
        guard let token = request.bearerToken else { throw .noAuthorization }
        let badJWTStatus = world.has(.supabaseBadJWT401) ? 401 : 403
        let claims: JSON
        func badJWT(_ detail: String) -> SupabaseError {
            SupabaseError(
                status: badJWTStatus, code: "bad_jwt",
                message: "invalid JWT: unable to parse or verify signature, \(detail)")
        }
        switch world.signers.supabase.verify(token, now: request.now) {
        case .success(let value): claims = value
        case .failure(.expired): throw badJWT("token has invalid claims: token is expired")
        case .failure(.badSignature): throw badJWT("token signature is invalid: signature is invalid")
        case .failure(.malformed):
            throw badJWT(
                token.split(separator: ".", omittingEmptySubsequences: false).count == 3
                    ? "token is malformed: could not JSON decode header"
                    : "token is malformed: token contains an invalid number of segments")
        }
        guard let userID = claims.text("sub"), let user = state.user(id: userID) else {
            throw SupabaseError(
                status: 403, code: "user_not_found", message: "User from sub claim in JWT does not exist")
        }
        guard let sessionID = claims.text("session_id") else { throw .sessionNotFound }
        // Break `supabase-logout-keeps-access-token`: a stateless check (signature and expiry only) that never looks
        // the session up, so logout deletes the refresh tokens while its access tokens keep working until `exp`.
        guard world.has(.supabaseLogoutKeepsAccessToken) || state.sessions.isLive(sessionID) else {
            throw .sessionNotFound
        }
        return Authenticated(user: user, sessionID: sessionID)
    }
}
