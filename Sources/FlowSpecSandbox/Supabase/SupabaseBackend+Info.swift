/// POST /resend, GET /settings and GET /health (github.com/supabase/auth, internal/api/resend.go, settings.go, api.go).
extension SupabaseBackend {
    // MARK: POST /resend

    func resend(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        let body = try body(request)
        let type = body.nonEmptyText("type") ?? ""
        let email = body.nonEmptyText("email")
        let rawPhone = body.nonEmptyText("phone")
        guard ["signup", "email_change", "sms", "phone_change"].contains(type) else {
            throw .validation("Missing one of these types: signup, email_change, sms, phone_change")
        }
        if email == nil, type == "signup" { throw .validation("Type provided requires an email address") }
        if rawPhone == nil, type == "sms" { throw .validation("Type provided requires a phone number") }
        if email != nil, rawPhone != nil {
            throw .validation("Only an email address or phone number should be provided.")
        }
        // The sandbox has no email users: GoTrue answers `{}` when the lookup finds nobody.
        if email != nil { return ok([:], request) }
        guard let rawPhone else { throw .validation("Missing email address or phone number") }
        let phone = try phone(rawPhone)
        return try world.withState { state throws(SupabaseError) in
            // Nobody, an already confirmed phone (type sms) or no pending phone change: `{}`, nothing sent.
            guard type == "sms", var user = state.supabase.users[phone], user.phoneConfirmedAt == nil else {
                return ok([:], request)
            }
            let messageID = try sendConfirmation(to: &user, now: request.now, state: &state)
            state.supabase.users[phone] = user
            return ok(messageID.map { ["message_id": .string($0)] } ?? [:], request)
        }
    }

    // MARK: GET /settings, GET /health

    static let providers = [
        "anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "snapchat", "figma",
        "fly", "github", "gitlab", "google", "keycloak", "kakao", "linkedin", "linkedin_oidc", "notion",
        "spotify", "slack", "slack_oidc", "workos", "twitch", "twitter", "email", "phone", "zoom",
    ]

    /// Phone sign-in only: the sandbox has no email or OAuth sign-in.
    func settingsInfo(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        var external: [String: JSON] = [:]
        for provider in Self.providers { external[provider] = .bool(provider == "phone") }
        return ok(
            [
                "external": .object(external), "disable_signup": false, "mailer_autoconfirm": false,
                "phone_autoconfirm": false,
                "sms_provider": "twilio", "saml_enabled": false, "saml_private_key_next_configured": false,
                "passkeys_enabled": false,
            ], request)
    }

    func health(_ request: SandboxRequest) throws(SupabaseError) -> Reply {
        ok(
            [
                "version": "flowspec-sandbox", "name": "GoTrue",
                "description": "GoTrue is a user registration and authentication API",
            ], request)
    }
}
