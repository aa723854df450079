/// Supabase Auth (GoTrue) behind its gateway, under `/auth/v1` (docs/systems/supabase-auth.md): phone OTP,
/// refresh-token rotation, /user, /logout, /resend, /settings and /health, both error envelopes. Checks run in
/// GoTrue's order (github.com/supabase/auth, internal/api/*.go): the gateway's apikey first, then the request's
/// validation, then lookups.
struct SupabaseBackend: Sendable {
    static let prefix = "/auth/v1"

    let world: World
    private var table: RouteTable {
        RouteTable(routes: [
            route("POST", "/otp", sendOTP),
            route("POST", "/verify", verify),
            route("POST", "/resend", resend),
            route("POST", "/token", token),
            route("GET", "/user", user),
            route("POST", "/logout", logout),
            route("GET", "/settings", settingsInfo),
            route("GET", "/health", health),
        ])
    }

    func respond(to request: SandboxRequest) async -> Reply? {
        guard request.path == Self.prefix || request.path.hasPrefix(Self.prefix + "/") else { return nil }
        // The gateway strips the prefix before GoTrue sees the path.
        let inner = SandboxRequest(
            method: request.method, path: String(request.path.dropFirst(Self.prefix.count)),
            query: request.query, headers: request.headers, body: request.body, now: request.now)
        if inner.path != "/verify",
            let refusal = SupabaseGateway.refusal(inner, anonKey: world.accounts.supabase.anonKey)
        {
            return refusal
        }
        switch await table.dispatch(inner) {
        case .handled(let reply): return reply
        case .wrongMethod:
            return SupabaseError(status: 405, code: "method_not_allowed", message: "Method Not Allowed").reply(
                for: inner)
        case .noRoute:
            return SupabaseError(status: 404, code: "not_found", message: "Not Found").reply(for: inner)
        }
    }

    private func route(
        _ method: String, _ path: String,
        _ handler: @escaping @Sendable (SandboxRequest) async throws(SupabaseError) -> Reply
    ) -> Route {
        Route(method, path) { request, _ in
            do throws(SupabaseError) {
                return try await handler(request)
            } catch {
                return error.reply(for: request)
            }
        }
    }

    var settings: SandboxAccounts.Supabase { world.accounts.supabase }
    var sessions: SupabaseSessions { SupabaseSessions(world: world) }

    /// The fixed code of a test phone (keys may be written with or without `+`).
    func testCode(for phone: String) -> String? {
        settings.testPhones.first { PhoneNumber.normalise($0.key) == phone }?.value
    }

    func body(_ request: SandboxRequest) throws(SupabaseError) -> JSON {
        switch request.jsonObject() {
        case .success(let body): return body
        case .failure:
            throw SupabaseError(status: 400, code: "bad_json", message: "Could not parse request body as JSON")
        }
    }

    func ok(_ body: JSON, _ request: SandboxRequest) -> Reply {
        .json(200, body, headers: SupabaseAPIVersion.responseHeaders(for: request))
    }

    /// GoTrue's `validatePhone`.
    func phone(_ raw: String) throws(SupabaseError) -> String {
        guard let phone = PhoneNumber.normalise(raw) else { throw .invalidPhone }
        return phone
    }

    // MARK: POST /otp (internal/api/otp.go)

    func sendOTP(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        let body = try body(request)
        let rawPhone = body.nonEmptyText("phone")
        let email = body.nonEmptyText("email")
        let channel = body.nonEmptyText("channel")
        if email != nil, rawPhone != nil {
            throw .validation("Only an email address or phone number should be provided")
        }
        if email != nil, channel != nil { throw .validation("Channel should only be specified with Phone OTP") }
        let createUser = body["create_user"]?.boolValue ?? true
        // shouldCreateUser: with create_user false the phone is validated and looked up before anything else.
        if !createUser, let rawPhone {
            let phone = try phone(rawPhone)
            let known = world.withState { $0.supabase.users[phone] != nil }
            if !known { throw SupabaseError(status: 422, code: "otp_disabled", message: "Signups not allowed for otp") }
        }
        if email != nil { throw .validation("Email OTP is not supported by the sandbox; use phone") }
        guard let rawPhone else { throw .validation("One of email or phone must be set") }
        // SmsOtp: validatePhone, then the channel.
        let phone = try phone(rawPhone)
        guard ["sms", "whatsapp"].contains(channel ?? "sms") else { throw .validation(SupabaseError.invalidChannel) }
        return try world.withState { state throws(SupabaseError) in
            var user =
                state.supabase.users[phone]
                ?? SupabaseState.User(
                    id: Secrets.uuid(), phone: phone, createdAt: request.now, updatedAt: request.now,
                    identityID: Secrets.uuid())
            // A phone not yet confirmed goes through sign-up, which answers `{}`; a confirmed one gets the
            // provider's message id (only test phones have one: "test-otp").
            let signingUp = user.phoneConfirmedAt == nil
            let messageID = try sendConfirmation(to: &user, now: request.now, state: &state)
            state.supabase.users[phone] = user
            return ok(signingUp || messageID == nil ? [:] : ["message_id": .string(messageID!)], request)
        }
    }

    /// GoTrue's `sendPhoneConfirmation`: the frequency check runs first — before the test-OTP lookup "so that the
    /// behavior of regular and test OTPs is similar" — then a test phone gets its fixed code and message id
    /// "test-otp", any other phone a new random code by SMS (the outbox).
    func sendConfirmation(to user: inout SupabaseState.User, now: Double, state: inout WorldState) throws(SupabaseError)
        -> String?
    {
        if !world.has(.supabaseOTPNoRateLimit), let sentAt = user.confirmationSentAt,
            now <= sentAt + settings.sendInterval
        {
            let left = Int((sentAt + settings.sendInterval - now).rounded(.towardZero))
            throw SupabaseError(
                status: 429, code: "over_sms_send_rate_limit",
                message: "For security purposes, you can only request this after \(left) seconds.")
        }
        let messageID: String?
        if let fixed = testCode(for: user.phone) {
            user.confirmationCode = fixed
            messageID = "test-otp"
        } else {
            let code = Secrets.sixDigitCode()
            user.confirmationCode = code
            state.outbox.send(
                to: "+" + user.phone, channel: .sms, code: code, subject: "Your code is \(code)", now: now)
            messageID = nil
        }
        user.confirmationSentAt = now
        user.updatedAt = now
        return messageID
    }

    // MARK: POST /verify (internal/api/verify.go)

    func verify(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        let body = try body(request)
        guard let type = body.nonEmptyText("type") else { throw .validation("Verify requires a verification type") }
        let token = body.nonEmptyText("token")
        let tokenHash = body.nonEmptyText("token_hash")
        guard (token == nil) != (tokenHash == nil) else {
            throw .validation("Verify requires either a token or a token hash")
        }
        let rawPhone = body.nonEmptyText("phone")
        let email = body.nonEmptyText("email")
        guard let token else {
            if rawPhone != nil || email != nil || body.nonEmptyText("redirect_to") != nil {
                throw .validation("Only the token_hash and type should be provided")
            }
            // The sandbox sends no email links, so no token hash can be valid.
            guard ["email", "signup", "invite", "recovery", "magiclink", "email_change"].contains(type) else {
                throw .validation("Invalid email verification type")
            }
            throw SupabaseError(status: 403, code: "otp_expired", message: "Email link is invalid or has expired")
        }
        guard let rawPhone, email == nil else {
            // An email OTP: the sandbox has no email users, so GoTrue's lookup finds nobody.
            if email != nil, rawPhone == nil { throw .otpExpired }
            throw .validation("Only an email address or phone number should be provided on verify")
        }
        let phone = try phone(rawPhone)
        return try world.withState { state throws(SupabaseError) in
            // Only `sms` looks the user up by phone (phone_change by a pending new phone, which the sandbox never
            // has; the email types and unknown types by email, which is empty here): nobody → 403.
            guard type == "sms", var user = state.supabase.users[phone] else { throw .otpExpired }
            let fixed = testCode(for: phone)
            // A test phone's fixed code is compared with the configuration, not the stored code: not single use.
            if token != fixed {
                guard let expected = user.confirmationCode, let sentAt = user.confirmationSentAt,
                    request.now <= sentAt + settings.otpLifetime, token == expected
                else { throw .otpExpired }
            }
            // ConfirmPhone: the code is spent (unless a break keeps it), the phone (re)confirmed now.
            if !world.has(.supabaseOTPReusable) { user.confirmationCode = nil }
            user.phoneConfirmedAt = request.now
            user.lastSignInAt = request.now
            user.updatedAt = request.now
            state.supabase.users[phone] = user
            let (session, refreshToken) = state.supabase.sessions.start(userID: user.id, now: request.now)
            return ok(
                sessions.sessionJSON(
                    user: user, sessionID: session.id, refreshToken: refreshToken,
                    request: request), request)
        }
    }

    // MARK: POST /token?grant_type=refresh_token (internal/api/token.go, token_refresh.go, internal/tokens/service.go)

    func token(_ request: SandboxRequest) async throws(SupabaseError) -> Reply {
        switch request.query["grant_type"] {
        case "refresh_token": break
        case "password", "id_token", "pkce", "web3":
            throw .validation("The sandbox supports only grant_type=refresh_token")
        default:
            throw SupabaseError(status: 400, code: "invalid_credentials", message: "unsupported_grant_type")
        }
        let body = try body(request)
        let refreshToken = body.text("refresh_token") ?? ""
        // RefreshTokenGrantParams.Validate, before any lookup.
        guard SupabaseRefreshTokens.isWellFormed(refreshToken) else { throw .validation("Refresh token is not valid") }
        var policy = SupabaseRefreshTokens.Policy(
            rotate: !world.has(.supabaseRefreshNoRotation), detectReuse: !world.has(.supabaseNoReuseDetection),
            revokeFamilyOnReuse: !world.has(.supabaseFamilySurvivesReuse),
            parentReturnsActive: !world.has(.supabaseParentReuseRefused))
        // Break `supabase-non-atomic-rotation`: the token is checked, the lock released, and the swap done on the
        // strength of that stale check — each concurrent refresh revokes the (already revoked) token and issues
        // its own child, instead of the later ones getting the active token as its parent. A token already
        // revoked when checked takes the healthy path.
        if world.has(.supabaseNonAtomicRotation), world.withState({ $0.supabase.sessions.isActive(refreshToken) }) {
            await RaceWindow.wait()
            policy.detectReuse = false
            policy.parentReturnsActive = false
        }
        return try world.withState { state throws(SupabaseError) in
            switch state.supabase.sessions.refresh(
                refreshToken, now: request.now, reuseInterval: settings.refreshReuseInterval,
                policy: policy)
            {
            case .notFound:
                throw .refreshTokenNotFound
            case .alreadyUsed:
                throw .refreshTokenAlreadyUsed
            case .issued(let session, let issued):
                guard let user = state.supabase.user(id: session.userID) else { throw .refreshTokenNotFound }
                return ok(
                    sessions.sessionJSON(user: user, sessionID: session.id, refreshToken: issued, request: request),
                    request)
            }
        }
    }

    // MARK: GET /user, POST /logout (internal/api/user.go, logout.go; authentication in auth.go)

    func user(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        let authenticated = try world.withState { state throws(SupabaseError) in
            try sessions.authenticate(request, state: state.supabase)
        }
        return ok(sessions.userJSON(authenticated.user), request)
    }

    func logout(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        try world.withState { state throws(SupabaseError) in
            // requireAuthentication runs before the handler reads the scope.
            let session = try sessions.authenticate(request, state: state.supabase)
            let scope = request.query["scope"] ?? ""
            guard ["", "global", "local", "others"].contains(scope) else {
                throw .validation("Unsupported logout scope \"\(scope)\"")
            }
            if !world.has(.supabaseLogoutKeepsSession) {
                for id in state.supabase.sessions.sessionIDs(userID: session.user.id) {
                    let isCurrent = id == session.sessionID
                    if scope == "local" ? isCurrent : scope == "others" ? !isCurrent : true {
                        state.supabase.sessions.delete(id)
                    }
                }
            }
            return .noContent(headers: SupabaseAPIVersion.responseHeaders(for: request))
        }
    }
}

extension JSON {
    /// A string field that is present and not empty (Go's zero value counts as absent).
    func nonEmptyText(_ key: String) -> String? {
        guard let value = text(key), !value.isEmpty else { return nil }
        return value
    }
}
