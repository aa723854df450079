/// A deliberately broken promise. Starting the sandbox with one break proves that a checker notices when a
/// backend stops keeping that promise (a checker that still passes has no teeth there): the live suite, the
/// probe, or both (`caughtBy`).
package enum SandboxBreak: String, CaseIterable, Sendable {
    // Repair Minder staff (docs/systems/repairminder.md)
    case twoFactorOptional = "two-factor-optional"
    case codesReusable = "codes-reusable"
    case noRefreshRotation = "no-refresh-rotation"
    case noReuseDetection = "no-reuse-detection"
    case familySurvivesReuse = "family-survives-reuse"
    case logoutKeepsSession = "logout-keeps-session"
    case acceptsTamperedToken = "accepts-tampered-token"
    case acceptsExpiredToken = "accepts-expired-token"
    case acceptsUnsignedToken = "accepts-unsigned-token"
    case acceptsAlteredClaims = "accepts-altered-claims"
    case roleConfusion = "role-confusion"
    case nonAtomicRotation = "non-atomic-rotation"
    case deactivatedCanLogin = "deactivated-can-login"
    case meDropsEmail = "me-drops-email"
    case wrongErrorMessage = "wrong-error-message"
    case mobileGetsWebLifetime = "mobile-gets-web-lifetime"
    case quarantineOpen = "quarantine-open"
    case quarantineBlocksMe = "quarantine-blocks-me"
    case longAccessLifetime = "long-access-lifetime"
    case refreshGarbageCrashes = "refresh-garbage-crashes"
    // Repair Minder staff 2FA codes (Repair Minder API, Login Codes: attempts and reuse are left to the backend)
    case noCodeAttemptLimit = "no-code-attempt-limit"
    case codeSurvivesNewLogin = "code-survives-new-login"
    // Sandbox-only staff notes (OWASP API1:2023, broken object-level authorization)
    case notesAnyOwner = "notes-any-owner"
    // Repair Minder staff, app-based 2FA (Repair Minder API step 3 note; RFC 6238)
    case totpNotAccepted = "totp-not-accepted"
    case totpReplayable = "totp-replayable"
    case recoveryCodeNotAccepted = "recovery-code-not-accepted"
    case recoveryCodeReusable = "recovery-code-reusable"
    // Repair Minder customers (Repair Minder API, docs/systems/repairminder.md; scenarios)
    case customerEnumeration = "customer-enumeration"
    case ignoresCompanyID = "ignores-company-id"
    case customerLogoutKeepsSession = "customer-logout-keeps-session"
    case customerRoleConfusion = "customer-role-confusion"
    // Supabase Auth (docs/systems/supabase-auth.md)
    case supabaseOTPNoRateLimit = "supabase-otp-no-rate-limit"
    case supabaseOTPReusable = "supabase-otp-reusable"
    case supabaseRefreshNoRotation = "supabase-refresh-no-rotation"
    case supabaseParentReuseRefused = "supabase-parent-reuse-refused"
    case supabaseNoReuseDetection = "supabase-no-reuse-detection"
    case supabaseFamilySurvivesReuse = "supabase-family-survives-reuse"
    case supabaseBadJWT401 = "supabase-bad-jwt-401"
    case supabaseLogoutKeepsSession = "supabase-logout-keeps-session"
    case supabaseLogoutKeepsAccessToken = "supabase-logout-keeps-access-token"
    case supabaseNonAtomicRotation = "supabase-non-atomic-rotation"
    // Traveling (docs/systems/traveling.md)
    case travelingNoEnvelope = "traveling-no-envelope"
    case travelingRefreshBroken = "traveling-refresh-broken"
    case travelingAcceptsExpiredToken = "traveling-accepts-expired-token"
    // Legacy Repair Minder (docs/systems/repairminder-legacy.md)
    case legacyTwoFactorOptional = "legacy-two-factor-optional"

    /// One line: the documented promise this break violates, and where it is documented.
    package var promise: String {
        switch self {
        case .twoFactorOptional:
            "Staff password login always requires 2FA and never returns tokens (Repair Minder API, docs/systems/repairminder.md, Staff Login Flow: \"Response (always requires 2FA)\")."
        case .codesReusable:
            "A 2FA or magic-link code works once; a used code is refused like a wrong one (Repair Minder API, docs/systems/repairminder.md, Login Codes; Supabase Auth, docs/systems/supabase-auth.md: \"The code is single use\")."
        case .noRefreshRotation:
            "Each refresh returns a new refresh token and retires the old one (Repair Minder API, docs/systems/repairminder.md, Token Refresh: \"Refresh tokens are single-use (rotation on each refresh)\")."
        case .noReuseDetection:
            "Presenting a rotated-out refresh token is rejected with \"Token reuse detected. All sessions revoked. Please log in again.\" (Repair Minder API, docs/systems/repairminder.md, Token Refresh)."
        case .familySurvivesReuse:
            "Reusing a revoked refresh token revokes the entire token family, so the newest token stops working too (Repair Minder API, docs/systems/repairminder.md, Token Refresh: \"Stolen token detection\")."
        case .logoutKeepsSession:
            "POST /api/auth/logout revokes the entire refresh token family for the session (Repair Minder API, docs/systems/repairminder.md, Logout)."
        case .acceptsTamperedToken:
            "Access tokens are signed JWTs; a token whose signature does not verify is rejected with 401 (Repair Minder API, docs/systems/repairminder.md, JWT Claims; Auto-Refresh Strategy)."
        case .acceptsExpiredToken:
            "Access tokens expire after 15 minutes and an expired one is rejected with 401 (Repair Minder API, docs/systems/repairminder.md, Token Lifetimes; Auto-Refresh Strategy)."
        case .acceptsUnsignedToken:
            "An access token must carry a valid HS256 signature; an unsigned `alg: none` token is rejected with 401 (Repair Minder API, docs/systems/repairminder.md, JWT Claims; RFC 8725 section 2.1 and 3.1: verify the algorithm, never accept `none` where a signature is expected; RFC 7515 section 5.2)."
        case .acceptsAlteredClaims:
            "The signature covers header and claims: a token whose claims were changed under the original signature is rejected with 401 (Repair Minder API, docs/systems/repairminder.md, JWT Claims; RFC 7515 section 5.2: the signature is validated over the JWS Signing Input presented; RFC 8725 section 2.1)."
        case .roleConfusion:
            "Staff and customer tokens are different kinds: a customer JWT (`type: customer`, `scope: customer_portal`) does not open staff endpoints such as GET /api/auth/me, which answer 401 (Repair Minder API, docs/systems/repairminder.md, JWT Claims, Staff JWT and Customer JWT; RFC 8725 sections 2.8 and 3.12: mutually exclusive validation rules for different kinds of JWT)."
        case .nonAtomicRotation:
            "Refresh tokens are single-use, also under concurrency: of several simultaneous refreshes with one token at most one succeeds (Repair Minder API, docs/systems/repairminder.md, Token Refresh, Security Features: Rotation; Stolen Token Detection)."
        case .deactivatedCanLogin:
            "A deactivated account cannot log in: 401 \"Account is deactivated\" (Repair Minder API, docs/systems/repairminder.md, Staff Login Flow, Error Responses)."
        case .meDropsEmail:
            "GET /api/auth/me returns the user with every User field, including email (Repair Minder API, docs/systems/repairminder.md, Get Current User; User Model)."
        case .wrongErrorMessage:
            "A wrong email or password answers 401 \"Invalid credentials\" (Repair Minder API, docs/systems/repairminder.md, Staff Login Flow, Error Responses)."
        case .mobileGetsWebLifetime:
            "A mobile User-Agent (Mobile, Android, iPhone, iPad, iPod) gets a 90-day refresh token and isMobile true (Repair Minder API, docs/systems/repairminder.md, Token Lifetimes; JWT Claims)."
        case .quarantineOpen:
            "Staff of a pending_approval or suspended company get 403 ACCOUNT_PENDING_APPROVAL outside the allow-list (Repair Minder API, docs/systems/repairminder.md, Quarantine Mode)."
        case .quarantineBlocksMe:
            "/api/auth/me stays allowed during quarantine (Repair Minder API, docs/systems/repairminder.md, Quarantine Mode, allowed endpoints)."
        case .longAccessLifetime:
            "A staff access token lives 15 minutes: JWT `exp` - `iat` and `expiresIn` are 900 s (Repair Minder API, docs/systems/repairminder.md, Token Lifetimes; Request and Response: \"expiresIn\": 900)."
        case .refreshGarbageCrashes:
            "POST /api/auth/refresh refuses a refresh token it did not issue with 401 \"Invalid refresh token\", whatever its shape, never a server error (Repair Minder API, docs/systems/repairminder.md, Token Refresh, Error Responses: \"All 401\"; RFC 6749 section 5.2: invalid_grant)."
        case .noCodeAttemptLimit:
            "A 2FA code cannot be guessed by trying codes: after a few wrong codes the live code is refused too (the Repair Minder API states no attempt limit (docs/systems/repairminder.md, Login Codes); the sandbox burns a code after five wrong ones; NIST SP 800-63B section 5.2.2, Rate Limiting)."
        case .codeSurvivesNewLogin:
            "A 2FA code that signed in once is refused afterwards, also in a new login of the same account (not documented: the sandbox promises single use through login_codes_single_use; Repair Minder API, docs/systems/repairminder.md, Login Codes)."
        case .notesAnyOwner:
            "A staff note (sandbox only: GET /api/sandbox/notes/{id}, docs/sandbox.md) is readable by its author alone; another staff member gets 404 (OWASP API Security Top 10 2023, API1: Broken Object Level Authorization)."
        case .totpNotAccepted:
            "An account with app-based 2FA signs in at /api/auth/2fa/verify with its authenticator's current TOTP code (Repair Minder API (docs/systems/repairminder.md, Staff Login Flow, Step 3): \"The code can also be a TOTP code (6 digits)\"; RFC 6238)."
        case .totpReplayable:
            "A TOTP code that signed in once is refused afterwards (RFC 6238 section 5.2: the verifier must not accept an OTP again after a successful validation)."
        case .recoveryCodeNotAccepted:
            "An account with app-based 2FA signs in at /api/auth/2fa/verify with an unused recovery code (Repair Minder API (docs/systems/repairminder.md, Staff Login Flow, Step 3): \"or recovery code (8 alphanumeric chars)\")."
        case .recoveryCodeReusable:
            "A recovery code works once; used, it is refused like a wrong code (Repair Minder API (docs/systems/repairminder.md, Staff Login Flow, Step 3) names recovery codes; single use is what makes them recovery codes)."
        case .customerEnumeration:
            "request-magic-link answers the same for known and unknown emails (Repair Minder API, docs/systems/repairminder.md, Customer Magic Link: \"always the same to prevent enumeration\")."
        case .ignoresCompanyID:
            "A multi-company customer's verify with companyId signs in to that company (Repair Minder API, docs/systems/repairminder.md, Customer Magic Link: \"call verify again with companyId\"; Repair Minder app, docs/systems/repairminder.md)."
        case .customerLogoutKeepsSession:
            "Customer logout ends that customer session (scenario customer-logout-keeps-staff-tokens; Repair Minder app, docs/systems/repairminder.md, Logout per Role)."
        case .customerRoleConfusion:
            "Customer and staff tokens are different kinds: a staff JWT (no `type: customer`, no `scope: customer_portal`) does not open customer endpoints such as GET /api/customer/auth/me, which answer 401 (Repair Minder API, docs/systems/repairminder.md, JWT Claims, Staff JWT and Customer JWT; RFC 8725 sections 2.8 and 3.12: mutually exclusive validation rules for different kinds of JWT)."
        case .supabaseOTPNoRateLimit:
            "A second SMS to the same phone within the send interval is refused with 429 over_sms_send_rate_limit, test phones included (Supabase Auth (docs/systems/supabase-auth.md, POST /otp); github.com/supabase/auth, internal/api/phone.go)."
        case .supabaseOTPReusable:
            "An SMS code is single use; presenting it again answers 403 otp_expired (Supabase Auth (docs/systems/supabase-auth.md, POST /verify))."
        case .supabaseRefreshNoRotation:
            "The refresh_token grant returns a new refresh token (rotation) (Supabase Auth (docs/systems/supabase-auth.md, POST /token))."
        case .supabaseParentReuseRefused:
            "Presenting the refresh token just rotated out (the parent of the active one) answers 200 with the active refresh token, nothing revoked (Supabase Auth (docs/systems/supabase-auth.md, POST /token); github.com/supabase/auth, internal/tokens/service.go)."
        case .supabaseNoReuseDetection:
            "Presenting an older rotated-out refresh token after the reuse interval answers 400 refresh_token_already_used (Supabase Auth (docs/systems/supabase-auth.md, POST /token); github.com/supabase/auth, internal/tokens/service.go)."
        case .supabaseFamilySurvivesReuse:
            "Reuse of an older refresh token revokes the whole token family: the active refresh token is refused afterwards (Supabase Auth (docs/systems/supabase-auth.md, POST /token); github.com/supabase/auth, internal/models/refresh_token.go RevokeTokenFamily)."
        case .supabaseBadJWT401:
            "An expired or bad JWT on /user answers 403 bad_jwt, not 401 (Supabase Auth (docs/systems/supabase-auth.md, GET /user))."
        case .supabaseLogoutKeepsSession:
            "POST /logout ends the session: its access token then gets 403 session_not_found (Supabase Auth (docs/systems/supabase-auth.md, GET /user, POST /logout))."
        case .supabaseLogoutKeepsAccessToken:
            "POST /logout ends the session, so its access token gets 403 session_not_found afterwards, not only its refresh token (Supabase Auth (docs/systems/supabase-auth.md, POST /logout: \"their access tokens get 403 session_not_found\"; GET /user); github.com/supabase/auth, internal/api/auth.go maybeLoadUserOrSession)."
        case .supabaseNonAtomicRotation:
            "Concurrent refreshes of one token all get the same active refresh token (the parent of the active one) or 409 conflict, never a different new token each (Supabase Auth (docs/systems/supabase-auth.md, POST /token: Refresh Token Reuse; Refresh Errors: 409 conflict); github.com/supabase/auth, internal/tokens/service.go)."
        case .travelingNoEnvelope:
            "Traveling answers are wrapped in {\"data\": ...} (docs/systems/traveling.md, Backend Requirements)."
        case .travelingRefreshBroken:
            "POST /v1/auth/refresh exchanges a valid refresh token for new tokens (Traveling API, docs/systems/traveling.md, Backend Requirements; refresh on 401)."
        case .travelingAcceptsExpiredToken:
            "An expired access token answers 401 on /v1/auth/me, so the client's refresh-on-401 runs (Traveling API, docs/systems/traveling.md, Authenticated Request Flow)."
        case .legacyTwoFactorOptional:
            "The legacy login answers requiresTwoFactor for a 2FA account until twoFactorToken is sent (legacy Repair Minder API, docs/systems/repairminder-legacy.md, Login)."
        }
    }
}
