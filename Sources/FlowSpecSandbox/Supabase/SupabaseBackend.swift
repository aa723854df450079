/// Supabase Auth (GoTrue) behind its gateway, under `/auth/v1` (reference/supabase-auth.md): phone OTP,
/// refresh-token rotation, /user and /logout, both error envelopes.
struct SupabaseBackend: Sendable {
    static let prefix = "/auth/v1"

    let world: World
    private var table: RouteTable {
        RouteTable(routes: [
            route("POST", "/otp", sendOTP),
            route("POST", "/verify", verify),
            route("POST", "/token", token),
            route("GET", "/user", user),
            route("POST", "/logout", logout),
        ])
    }

    func respond(to request: SandboxRequest) -> Reply? {
        guard request.path == Self.prefix || request.path.hasPrefix(Self.prefix + "/") else { return nil }
        // The gateway strips the prefix before GoTrue sees the path.
        let inner = SandboxRequest(method: request.method, path: String(request.path.dropFirst(Self.prefix.count)),
                                   query: request.query, headers: request.headers, body: request.body, now: request.now)
        if inner.path != "/verify", let refusal = SupabaseGateway.refusal(inner, anonKey: world.accounts.supabase.anonKey) {
            return refusal
        }
        switch table.dispatch(inner) {
        case .handled(let reply): return reply
        case .wrongMethod:
            return SupabaseError(status: 405, code: "method_not_allowed", message: "Method Not Allowed").reply(for: inner)
        case .noRoute:
            return SupabaseError(status: 404, code: "not_found", message: "Not Found").reply(for: inner)
        }
    }

    private func route(_ method: String, _ path: String,
                       _ handler: @escaping @Sendable (SandboxRequest) throws(SupabaseError) -> Reply) -> Route
    {
        Route(method, path) { request, _ in
            do throws(SupabaseError) {
                return try handler(request)
            } catch {
                return error.reply(for: request)
            }
        }
    }

    private var settings: SandboxAccounts.Supabase { world.accounts.supabase }
    private var sessions: SupabaseSessions { SupabaseSessions(world: world) }

    /// The fixed code of a test phone (keys may be written with or without `+`).
    private func testCode(for phone: String) -> String? {
        settings.testPhones.first { PhoneNumber.normalise($0.key) == phone }?.value
    }

    private func body(_ request: SandboxRequest) throws(SupabaseError) -> JSON {
        switch request.jsonObject() {
        case .success(let body): return body
        case .failure: throw SupabaseError(status: 400, code: "bad_json", message: "Could not parse request body as JSON")
        }
    }

    private func ok(_ body: JSON, _ request: SandboxRequest) -> Reply {
        .json(200, body, headers: SupabaseAPIVersion.responseHeaders(for: request))
    }

    // MARK: POST /otp

    func sendOTP(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        let body = try body(request)
        let rawPhone = body.text("phone")
        if rawPhone == nil, body.text("email") == nil { throw .validation("One of email or phone must be set") }
        if rawPhone != nil, body.text("email") != nil {
            throw .validation("Only an email address or phone number should be provided")
        }
        guard let rawPhone else { throw .validation("Email OTP is not supported by the sandbox; use phone") }
        let channel = body.text("channel") ?? "sms"
        guard channel == "sms" || channel == "whatsapp" else {
            throw .validation("Invalid channel, supported values are 'sms' or 'whatsapp'")
        }
        guard let phone = PhoneNumber.normalise(rawPhone) else { throw .invalidPhone }
        let createUser = body["create_user"]?.boolValue ?? true
        let fixedCode = testCode(for: phone)
        return try world.withState { state throws(SupabaseError) in
            if !createUser, state.supabase.users[phone] == nil {
                throw SupabaseError(status: 422, code: "otp_disabled", message: "Signups not allowed for otp")
            }
            if !world.has(.supabaseOTPNoRateLimit), let last = state.supabase.lastSend[phone],
               request.now - last < settings.sendInterval
            {
                let wait = Int((settings.sendInterval - (request.now - last)).rounded(.up))
                throw SupabaseError(status: 429, code: "over_sms_send_rate_limit",
                                    message: "For security purposes, you can only request this after \(wait) seconds.")
            }
            state.supabase.lastSend[phone] = request.now
            if state.supabase.users[phone] == nil {
                state.supabase.users[phone] = SupabaseState.User(id: Secrets.uuid(), phone: phone, createdAt: request.now,
                                                                 updatedAt: request.now)
            }
            // Test phones get no SMS: their fixed code is the only code (GoTrue's sms_test_otp).
            if fixedCode == nil {
                let code = state.supabase.codes.issue(for: phone, lifetime: settings.otpLifetime, now: request.now)
                state.outbox.send(to: "+" + phone, channel: .sms, code: code,
                                  subject: "Your code is \(code)", now: request.now)
            }
            return ok([:], request)
        }
    }

    // MARK: POST /verify

    static let verificationTypes = ["sms", "phone_change", "signup", "invite", "magiclink", "recovery", "email_change", "email"]

    func verify(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        let body = try body(request)
        guard let type = body.text("type") else { throw .validation("Verify requires a verification type") }
        guard Self.verificationTypes.contains(type) else { throw .validation("Unsupported verification type") }
        guard let token = body.text("token") ?? body.text("token_hash") else {
            throw .validation("Verify requires either a token or a token hash")
        }
        // Email verification types: the sandbox sends no email OTPs, so no such code can be valid.
        guard type == "sms" || type == "phone_change" else { throw .otpExpired }
        guard let phone = body.text("phone").flatMap(PhoneNumber.normalise) else { throw .invalidPhone }
        let fixedCode = testCode(for: phone)
        return try world.withState { state throws(SupabaseError) in
            let accepted: Bool
            if let fixedCode {
                accepted = token == fixedCode  // reusable, no send needed, like GoTrue's test numbers
            } else {
                accepted = state.supabase.codes.redeem(token, for: phone, now: request.now,
                                                       consume: !world.has(.supabaseOTPReusable))
            }
            guard accepted else { throw .otpExpired }
            var user = state.supabase.users[phone]
                ?? SupabaseState.User(id: Secrets.uuid(), phone: phone, createdAt: request.now, updatedAt: request.now)
            if user.phoneConfirmedAt == nil { user.phoneConfirmedAt = request.now }
            user.lastSignInAt = request.now
            user.updatedAt = request.now
            state.supabase.users[phone] = user
            let family = state.supabase.sessions.start(subject: user.id, lifetime: SupabaseSessions.refreshLifetime,
                                                       isMobile: false, now: request.now)
            return ok(sessions.sessionJSON(user: user, sessionID: family.id, refreshToken: family.current,
                                           request: request), request)
        }
    }

    // MARK: POST /token?grant_type=refresh_token

    func token(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        guard request.query["grant_type"] == "refresh_token" else {
            throw .validation("Unsupported grant_type; the sandbox supports grant_type=refresh_token")
        }
        let body = try body(request)
        guard let refreshToken = body.text("refresh_token") else { throw .validation("Refresh token is not valid") }
        let policy = RefreshFamilies.Policy(rotate: !world.has(.supabaseRefreshNoRotation))
        return try world.withState { state throws(SupabaseError) in
            switch state.supabase.sessions.rotate(refreshToken, lifetime: SupabaseSessions.refreshLifetime, isMobile: false,
                                                  now: request.now, policy: policy)
            {
            case .unknown:
                throw .refreshTokenNotFound
            case .reused, .revoked:
                throw .refreshTokenAlreadyUsed
            case .expired:
                throw SupabaseError(status: 400, code: "session_expired", message: "Session Expired")
            case .rotated(let family):
                guard let user = state.supabase.user(id: family.subject) else { throw .refreshTokenNotFound }
                return ok(sessions.sessionJSON(user: user, sessionID: family.id, refreshToken: family.current,
                                               request: request), request)
            }
        }
    }

    // MARK: GET /user, POST /logout

    func user(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        let authenticated = try world.withState { state throws(SupabaseError) in
            try sessions.authenticate(request, state: state.supabase)
        }
        return ok(sessions.userJSON(authenticated.user), request)
    }

    func logout(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        let scope = request.query["scope"] ?? "global"
        guard ["global", "local", "others"].contains(scope) else {
            throw .validation("Unsupported logout scope \"\(scope)\"")
        }
        return try world.withState { state throws(SupabaseError) in
            let session = try sessions.authenticate(request, state: state.supabase)
            if !world.has(.supabaseLogoutKeepsSession) {
                for id in state.supabase.sessions.familyIDs(subject: session.user.id) {
                    let isCurrent = id == session.sessionID
                    if scope == "global" || (scope == "local" && isCurrent) || (scope == "others" && !isCurrent) {
                        state.supabase.sessions.forget(id)
                    }
                }
            }
            return .noContent(headers: SupabaseAPIVersion.responseHeaders(for: request))
        }
    }
}
