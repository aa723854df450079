// Over 300 lines: one suite for one API surface (GoTrue's /auth/v1), each test a documented behaviour with its source.
import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("Supabase Auth under /auth/v1 (docs/systems/supabase-auth.md)", .timeLimit(.minutes(5)))
struct SupabaseTests {
    @Test(
        "the gateway wants the anon key: none is 401 with WWW-Authenticate, a wrong one 401 Invalid API key",
        arguments: SandboxTestMode.allCases)
    func apikey(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let none = try await s.supabase("POST", "/otp", ["phone": "+41791234567"], headers: [:])
            #expect(none.status == 401)
            #expect(none.json == ["message": "No API key found in request"])
            #expect(none.headers["www-authenticate"] == #"Key realm="kong""#)
            let wrong = try await s.supabase("POST", "/otp", ["phone": "+41791234567"], headers: ["apikey": "nope"])
            #expect(wrong.status == 401)
            #expect(wrong.json == ["message": "Invalid API key"])
        }
    }

    @Test(
        "a real phone gets a random 6-digit SMS code in the outbox; verify returns the session shape",
        arguments: SandboxTestMode.allCases)
    func otpAndVerify(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let sent = try await s.supabase(
                "POST", "/otp", ["phone": "+41 79 123 45 67", "create_user": true, "channel": "sms"])
            #expect(sent.status == 200)
            #expect(sent.json == [:])
            #expect(sent.headers["x-supabase-api-version"] == "2024-01-01")
            let code = try await s.latestCode(to: "+41791234567")
            let messages = try await s.get("/__sandbox/outbox?to=%2B41791234567").json
            guard case .array(let list) = messages, let sms = list.first else { Issue.record("no SMS"); return }
            #expect(list.count == 1)
            #expect(sms["channel"] == "sms")
            #expect(sms["to"] == "+41791234567")
            #expect(sms["code"] == .string(code))
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            let verify = try await s.supabase(
                "POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(code)])
            #expect(verify.status == 200)
            #expect(verify["token_type"] == "bearer")
            #expect(verify["expires_in"] == 3600)
            let expiresAt = try #require(verify["expires_at"]?.intValue)
            let access = try #require(verify["access_token"]?.stringValue)
            #expect(claims(of: access)["exp"]?.intValue == expiresAt)
            #expect(verify["refresh_token"]?.stringValue != nil)
            let user = try #require(verify["user"])
            #expect(user["phone"] == "41791234567")
            #expect(user["aud"] == "authenticated")
            #expect(user["role"] == "authenticated")
            #expect(user["email"] == "")
            for key in [
                "id", "phone_confirmed_at", "app_metadata", "user_metadata", "identities", "created_at",
                "updated_at", "is_anonymous",
            ] {
                #expect(user[key] != nil, "user.\(key) missing")
            }
            // Single use.
            let again = try await s.supabase(
                "POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(code)])
            #expect(again.status == 403)
            #expect(again.json == ["code": "otp_expired", "message": "Token has expired or is invalid"])
            #expect(again.headers["x-sb-error-code"] == "otp_expired")
        }
    }

    @Test(
        "both error envelopes, chosen by X-Supabase-Api-Version, with x-sb-error-code either way",
        arguments: SandboxTestMode.allCases)
    func envelopes(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let body: JSON = ["type": "sms", "phone": "+41791234567", "token": "000000"]
            let new = try await s.supabase("POST", "/verify", body)
            #expect(new.status == 403)
            #expect(new.json == ["code": "otp_expired", "message": "Token has expired or is invalid"])
            #expect(new.headers["x-supabase-api-version"] == "2024-01-01")
            let legacy = try await s.supabase(
                "POST", "/verify", body, headers: ["apikey": s.vars["supabase_anon_key"]!])
            #expect(legacy.status == 403)
            #expect(
                legacy.json == ["code": 403, "error_code": "otp_expired", "msg": "Token has expired or is invalid"])
            #expect(legacy.headers["x-sb-error-code"] == "otp_expired")
            #expect(legacy.headers["x-supabase-api-version"] == nil)
        }
    }

    static let invalidPhone = "Invalid phone number format (E.164 required)"
    static let validationCases: [(String, JSON, String)] = [
        ("/otp", JSON.object(["phone": .string("+0791234567")]), invalidPhone),
        ("/otp", JSON.object(["phone": .string("+1234567890123456")]), invalidPhone),
        ("/otp", JSON.object(["phone": .string("+12a")]), invalidPhone),
        ("/otp", JSON.object([:]), "One of email or phone must be set"),
        ("/otp", JSON.object(["phone": .string(""), "email": .string("")]), "One of email or phone must be set"),
        (
            "/otp", JSON.object(["phone": .string("+41791234567"), "email": .string("a@example.com")]),
            "Only an email address or phone number should be provided"
        ),
        // SmsOtp validates the phone before the channel.
        ("/otp", JSON.object(["phone": .string("+0791234567"), "channel": .string("fax")]), invalidPhone),
        (
            "/otp", JSON.object(["phone": .string("+41791234567"), "channel": .string("fax")]),
            SupabaseError.invalidChannel
        ),
        ("/otp", JSON.object(["phone": .string("+0791234567"), "create_user": .bool(false)]), invalidPhone),
        (
            "/verify", JSON.object(["phone": .string("+41791234567"), "token": .string("123456")]),
            "Verify requires a verification type"
        ),
        (
            "/verify", JSON.object(["type": .string("sms"), "phone": .string("+41791234567")]),
            "Verify requires either a token or a token hash"
        ),
        (
            "/verify", JSON.object(["type": .string("sms"), "token": .string("1"), "token_hash": .string("2")]),
            "Verify requires either a token or a token hash"
        ),
        (
            "/verify",
            JSON.object(["type": .string("sms"), "phone": .string("+0791234567"), "token": .string("123456")]),
            invalidPhone
        ),
        (
            "/verify", JSON.object(["type": .string("sms"), "token": .string("123456")]),
            "Only an email address or phone number should be provided on verify"
        ),
        (
            "/verify",
            JSON.object(["type": .string("sms"), "token_hash": .string("abc"), "phone": .string("+41791234567")]),
            "Only the token_hash and type should be provided"
        ),
        (
            "/verify", JSON.object(["type": .string("sms"), "token_hash": .string("abc")]),
            "Invalid email verification type"
        ),
        (
            "/resend", JSON.object(["phone": .string("+41791234567")]),
            "Missing one of these types: signup, email_change, sms, phone_change"
        ),
        ("/resend", JSON.object(["type": .string("sms")]), "Type provided requires a phone number"),
        ("/resend", JSON.object(["type": .string("sms"), "phone": .string("+0791234567")]), invalidPhone),
        ("/resend", JSON.object(["type": .string("phone_change")]), "Missing email address or phone number"),
        ("/token?grant_type=refresh_token", JSON.object([:]), "Refresh token is not valid"),
        (
            "/token?grant_type=refresh_token", JSON.object(["refresh_token": .string("short")]),
            "Refresh token is not valid"
        ),
        (
            "/token?grant_type=refresh_token", JSON.object(["refresh_token": .string("ABCDEFGHIJKL")]),
            "Refresh token is not valid"
        ),
        (
            "/token?grant_type=refresh_token", JSON.object(["refresh_token": .string("not-a-v2-refresh-token")]),
            "Refresh token is not valid"
        ),
    ]

    @Test(
        "validation errors are 400 validation_failed, in GoTrue's order and wording",
        arguments: validationCases, SandboxTestMode.allCases)
    func validation(_ refused: (path: String, body: JSON, message: String), mode: SandboxTestMode) async throws {
        let (path, body, message) = refused
        try await withSandbox(mode) { s in
            let answer = try await s.supabase("POST", path, body)
            #expect(answer.status == 400)
            #expect(answer.json == ["code": "validation_failed", "message": .string(message)])
            #expect(answer.headers["x-sb-error-code"] == "validation_failed")
        }
    }

    @Test(
        "a verify for a phone that was never sent a code, an unknown type or an email finds no user: 403 otp_expired",
        arguments: SandboxTestMode.allCases)
    func verifyWithoutUser(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            for body: JSON in [
                ["type": "sms", "phone": .string(s.vars["phone"]!), "token": .string(s.vars["phone_otp"]!)],
                ["type": "carrier-pigeon", "phone": "+41791234567", "token": "123456"],
                ["type": "email", "email": "a@example.com", "token": "123456"],
            ] {
                let answer = try await s.supabase("POST", "/verify", body)
                #expect(answer.status == 403, "\(body)")
                #expect(answer.json == ["code": "otp_expired", "message": "Token has expired or is invalid"])
            }
            let link = try await s.supabase("POST", "/verify", ["type": "magiclink", "token_hash": "abc"])
            #expect(link.status == 403)
            #expect(link.json == ["code": "otp_expired", "message": "Email link is invalid or has expired"])
        }
    }

    @Test(
        "an unsupported grant_type is 400 invalid_credentials unsupported_grant_type",
        arguments: SandboxTestMode.allCases)
    func unsupportedGrant(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let answer = try await s.supabase("POST", "/token?grant_type=magic", ["refresh_token": "abcdefghijkl"])
            #expect(answer.status == 400)
            #expect(answer.json == ["code": "invalid_credentials", "message": "unsupported_grant_type"])
        }
    }

    @Test("create_user false for an unknown phone is 422 otp_disabled", arguments: SandboxTestMode.allCases)
    func signupsDisabled(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let answer = try await s.supabase("POST", "/otp", ["phone": "+41791234567", "create_user": false])
            #expect(answer.status == 422)
            #expect(answer["code"] == "otp_disabled")
        }
    }

    @Test(
        "a second send within the window is 429 over_sms_send_rate_limit (seconds left, truncated); once it has passed it is allowed",
        arguments: SandboxTestMode.allCases)
    func rateLimit(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, accounts: accounts { $0.supabase.sendInterval = 60 }, clock: clock) { s in
            #expect(try await s.supabase("POST", "/otp", ["phone": "+41791234567"]).status == 200)
            let limited = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            #expect(limited.status == 429)
            #expect(limited["code"] == "over_sms_send_rate_limit")
            #expect(limited["message"] == "For security purposes, you can only request this after 60 seconds.")
            #expect(limited.headers["x-sb-error-code"] == "over_sms_send_rate_limit")
            // Per phone: another number is not limited.
            #expect(try await s.supabase("POST", "/otp", ["phone": "+41791234568"]).status == 200)
            clock.advance(by: 58.5)
            let stillLimited = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            #expect(stillLimited["message"] == "For security purposes, you can only request this after 1 seconds.")
            // GoTrue refuses until sent_at + interval is strictly before now: at the instant itself, still 429.
            clock.advance(by: 1.5)
            let atTheEnd = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            #expect(atTheEnd.status == 429)
            #expect(atTheEnd["message"] == "For security purposes, you can only request this after 0 seconds.")
            clock.advance(by: 0.5)
            #expect(try await s.supabase("POST", "/otp", ["phone": "+41791234567"]).status == 200)
        }
    }

    @Test(
        "an SMS code is valid until sent_at + lifetime inclusive, and only the latest code counts",
        arguments: SandboxTestMode.allCases)
    func otpExpiry(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(
            mode,
            accounts: accounts {
                $0.supabase.otpLifetime = 60; $0.supabase.sendInterval = 30
            },
            clock: clock
        ) { s in
            _ = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            let code = try await s.latestCode(to: "+41791234567")
            clock.advance(by: 60.5)
            let late = try await s.supabase(
                "POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(code)])
            #expect(late.status == 403)
            #expect(late["code"] == "otp_expired")
            // A wrong code is refused the same way, so show that time is what refused it: a fresh code used at the
            // last instant of its lifetime verifies.
            try #require(try await s.supabase("POST", "/otp", ["phone": "+41791234567"]).status == 200)
            let fresh = try await s.latestCode(to: "+41791234567")
            clock.advance(by: 31)
            try #require(try await s.supabase("POST", "/otp", ["phone": "+41791234567"]).status == 200)
            let newest = try await s.latestCode(to: "+41791234567")
            if newest != fresh {
                let superseded = try await s.supabase(
                    "POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(fresh)])
                #expect(superseded.status == 403)
            }
            clock.advance(by: 60)
            let inTime = try await s.supabase(
                "POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(newest)])
            #expect(inTime.status == 200)
        }
    }

    @Test(
        "a test phone: sends are rate limited, answer message_id test-otp once confirmed, and the fixed code is reusable",
        arguments: SandboxTestMode.allCases)
    func testPhone(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            let phone = JSON.string(s.vars["phone"]!)
            let code = JSON.string(s.vars["phone_otp"]!)
            // Never sent a code: no user, so even the fixed code is refused.
            #expect(
                try await s.supabase("POST", "/verify", ["type": "sms", "phone": phone, "token": code]).status == 403)
            // The first send signs the phone up: `{}`, like any sign-up.
            let first = try await s.supabase("POST", "/otp", ["phone": phone])
            #expect(first.status == 200)
            #expect(first.json == [:])
            #expect(try await s.supabase("POST", "/otp", ["phone": phone]).status == 429)
            // No SMS for test numbers.
            #expect(try await s.get("/__sandbox/outbox/latest?to=%2B15555550100").status == 404)
            let wrong = try await s.supabase("POST", "/verify", ["type": "sms", "phone": phone, "token": "000001"])
            #expect(wrong.status == 403)
            let one = try await s.supabase("POST", "/verify", ["type": "sms", "phone": phone, "token": code])
            let two = try await s.supabase("POST", "/verify", ["type": "sms", "phone": phone, "token": code])
            #expect(one.status == 200)
            #expect(two.status == 200)
            #expect(one["user"]?["id"] == two["user"]?["id"])
            #expect(one["user"]?["phone"] == "15555550100")
            // Confirmed now: a send (once the window has passed) answers the test message id.
            clock.advance(by: 61)
            let again = try await s.supabase("POST", "/otp", ["phone": phone])
            #expect(again.json == ["message_id": "test-otp"])
            #expect(
                try await s.supabase("POST", "/verify", ["type": "sms", "phone": phone, "token": code]).status == 200)
        }
    }

    @Test(
        "the session's user has one phone identity, confirmation_sent_at and no null timestamps",
        arguments: SandboxTestMode.allCases)
    func userShape(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let session = try await s.supabaseSignIn()
            let user = try #require(session["user"])
            guard case .object(let fields) = user else { Issue.record("user is not an object"); return }
            #expect(!fields.values.contains(.null))
            for key in ["confirmation_sent_at", "phone_confirmed_at", "confirmed_at", "last_sign_in_at"] {
                #expect(user[key]?.stringValue != nil, "user.\(key)")
            }
            guard case .array(let identities) = user["identities"], let identity = identities.first else {
                Issue.record("no identity"); return
            }
            #expect(identities.count == 1)
            #expect(identity["provider"] == "phone")
            #expect(identity["id"] == user["id"])
            #expect(identity["user_id"] == user["id"])
            #expect(identity["identity_id"]?.stringValue != nil)
            #expect(
                identity["identity_data"] == ["sub": user["id"]!, "email_verified": false, "phone_verified": false])
            let token = try #require(session["access_token"]?.stringValue)
            #expect(try await s.supabase("GET", "/user", bearer: token).json == user)
        }
    }

    @Test(
        "/resend: nothing for an unknown or confirmed phone; the pending sign-up gets a code, rate limited like /otp",
        arguments: SandboxTestMode.allCases)
    func resend(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            let unknown = try await s.supabase("POST", "/resend", ["type": "sms", "phone": "+41791234567"])
            #expect(unknown.status == 200)
            #expect(unknown.json == [:])
            #expect(try await s.get("/__sandbox/outbox/latest?to=%2B41791234567").status == 404)
            #expect(try await s.supabase("POST", "/otp", ["phone": "+41791234567"]).status == 200)
            let first = try await s.latestCode(to: "+41791234567")
            let limited = try await s.supabase("POST", "/resend", ["type": "sms", "phone": "+41791234567"])
            #expect(limited.status == 429)
            #expect(limited["code"] == "over_sms_send_rate_limit")
            clock.advance(by: 61)
            let resent = try await s.supabase("POST", "/resend", ["type": "sms", "phone": "+41791234567"])
            #expect(resent.status == 200)
            #expect(resent.json == [:])
            let second = try await s.latestCode(to: "+41791234567")
            let messages = try await s.get("/__sandbox/outbox?to=%2B41791234567").json
            guard case .array(let list) = messages else { Issue.record("no outbox list"); return }
            #expect(list.count == 2)
            _ = first
            #expect(
                try await s.supabase(
                    "POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(second)]
                ).status == 200)
            // Confirmed: nothing more is sent, and no rate limit applies.
            let confirmed = try await s.supabase("POST", "/resend", ["type": "sms", "phone": "+41791234567"])
            #expect(confirmed.status == 200)
            #expect(confirmed.json == [:])
            #expect(try await s.supabase("POST", "/resend", ["type": "sms", "phone": "+41791234567"]).status == 200)
            // A test phone's pending sign-up answers the test message id.
            clock.advance(by: 61)
            _ = try await s.supabase("POST", "/otp", ["phone": .string(s.vars["phone"]!)])
            clock.advance(by: 61)
            let test = try await s.supabase("POST", "/resend", ["type": "sms", "phone": .string(s.vars["phone"]!)])
            #expect(test.json == ["message_id": "test-otp"])
        }
    }

    @Test("GET /settings and /health answer GoTrue's shapes, behind the apikey", arguments: SandboxTestMode.allCases)
    func settingsAndHealth(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let settings = try await s.supabase("GET", "/settings")
            #expect(settings.status == 200)
            #expect(settings["external"]?["phone"] == true)
            #expect(settings["external"]?["email"] == false)
            #expect(settings["disable_signup"] == false)
            #expect(settings["phone_autoconfirm"] == false)
            let health = try await s.supabase("GET", "/health")
            #expect(health.status == 200)
            #expect(health["name"] == "GoTrue")
            #expect(health["description"] == "GoTrue is a user registration and authentication API")
            #expect(try await s.supabase("GET", "/health", headers: [:]).status == 401)
        }
    }

    @Test(
        "/user: 200 with a good token, 401 no_authorization without, 403 bad_jwt for bad or expired tokens",
        arguments: SandboxTestMode.allCases)
    func user(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            let session = try await s.supabaseSignIn()
            let token = try #require(session["access_token"]?.stringValue)
            let user = try await s.supabase("GET", "/user", bearer: token)
            #expect(user.status == 200)
            #expect(user["phone"] == "15555550100")
            #expect(user["id"] == session["user"]?["id"])

            let missing = try await s.supabase("GET", "/user")
            #expect(missing.status == 401)
            #expect(
                missing.json == ["code": "no_authorization", "message": "This endpoint requires a valid Bearer token"])
            #expect(missing.headers["www-authenticate"] == nil)
            let forged = try await s.supabase("GET", "/user", bearer: tampered(token))
            #expect(forged.status == 403)
            #expect(
                forged.json == [
                    "code": "bad_jwt",
                    "message":
                        "invalid JWT: unable to parse or verify signature, token signature is invalid: signature is invalid",
                ])
            #expect(forged.headers["x-sb-error-code"] == "bad_jwt")
            // The clock started on a whole second, so exp is exactly issue + lifetime: the token works one
            // second before that instant and is refused at it.
            clock.advance(by: SandboxAccounts.defaults.supabase.accessTokenLifetime - 1)
            #expect(try await s.supabase("GET", "/user", bearer: token).status == 200)
            clock.advance(by: 1)
            let expired = try await s.supabase("GET", "/user", bearer: token)
            #expect(expired.status == 403)
            #expect(
                expired.json == [
                    "code": "bad_jwt",
                    "message":
                        "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired",
                ])
            #expect(expired.headers["www-authenticate"] == nil)
        }
    }

    @Test(
        "logout answers 204 and ends the session: the token then gets 403 session_not_found, its refresh token not_found",
        arguments: SandboxTestMode.allCases)
    func logout(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let session = try await s.supabaseSignIn()
            let token = try #require(session["access_token"]?.stringValue)
            let logout = try await s.supabase("POST", "/logout?scope=global", bearer: token)
            #expect(logout.status == 204)
            #expect(logout.text.isEmpty)
            let user = try await s.supabase("GET", "/user", bearer: token)
            #expect(user.status == 403)
            #expect(
                user.json == [
                    "code": "session_not_found", "message": "Session from session_id claim in JWT does not exist",
                ])
            let refresh = try await s.supabase(
                "POST", "/token?grant_type=refresh_token",
                ["refresh_token": session["refresh_token"]!])
            #expect(refresh["code"] == "refresh_token_not_found")
        }
    }

    @Test("logout with scope local ends only this session", arguments: SandboxTestMode.allCases)
    func logoutLocal(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let one = try #require(try await s.supabaseSignIn()["access_token"]?.stringValue)
            let two = try #require(try await s.supabaseSignIn()["access_token"]?.stringValue)
            #expect(try await s.supabase("POST", "/logout?scope=local", bearer: one).status == 204)
            #expect(try await s.supabase("GET", "/user", bearer: one).status == 403)
            #expect(try await s.supabase("GET", "/user", bearer: two).status == 200)
        }
    }

    @Test(
        "logout authenticates before it reads the scope; scope others keeps only this session",
        arguments: SandboxTestMode.allCases)
    func logoutOthers(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let bad = try await s.supabase("POST", "/logout?scope=everywhere")
            #expect(bad.status == 401)
            let one = try #require(try await s.supabaseSignIn()["access_token"]?.stringValue)
            let two = try #require(try await s.supabaseSignIn()["access_token"]?.stringValue)
            let wrongScope = try await s.supabase("POST", "/logout?scope=everywhere", bearer: one)
            #expect(
                wrongScope.json == ["code": "validation_failed", "message": "Unsupported logout scope \"everywhere\""])
            #expect(try await s.supabase("POST", "/logout?scope=others", bearer: one).status == 204)
            #expect(try await s.supabase("GET", "/user", bearer: one).status == 200)
            #expect(try await s.supabase("GET", "/user", bearer: two).status == 403)
        }
    }
}
