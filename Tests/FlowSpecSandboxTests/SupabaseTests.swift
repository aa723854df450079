import Testing

@testable import FlowSpecSandbox

@Suite("Supabase Auth under /auth/v1 (reference/supabase-auth.md)")
struct SupabaseTests {
    @Test("the gateway wants the anon key: none is 401 with WWW-Authenticate, a wrong one 401 Invalid API key")
    func apikey() async throws {
        try await withSandbox { s in
            let none = try await s.supabase("POST", "/otp", ["phone": "+41791234567"], headers: [:])
            #expect(none.status == 401)
            #expect(none.json == ["message": "No API key found in request"])
            #expect(none.headers["www-authenticate"] == #"Key realm="kong""#)
            let wrong = try await s.supabase("POST", "/otp", ["phone": "+41791234567"], headers: ["apikey": "nope"])
            #expect(wrong.status == 401)
            #expect(wrong.json == ["message": "Invalid API key"])
        }
    }

    @Test("a real phone gets a random 6-digit SMS code in the outbox; verify returns the session shape")
    func otpAndVerify() async throws {
        try await withSandbox { s in
            let sent = try await s.supabase("POST", "/otp", ["phone": "+41 79 123 45 67", "create_user": true, "channel": "sms"])
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
            let verify = try await s.supabase("POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(code)])
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
            for key in ["id", "phone_confirmed_at", "app_metadata", "user_metadata", "identities", "created_at",
                        "updated_at", "is_anonymous"] {
                #expect(user[key] != nil, "user.\(key) missing")
            }
            // Single use.
            let again = try await s.supabase("POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(code)])
            #expect(again.status == 403)
            #expect(again.json == ["code": "otp_expired", "message": "Token has expired or is invalid"])
            #expect(again.headers["x-sb-error-code"] == "otp_expired")
        }
    }

    @Test("both error envelopes, chosen by X-Supabase-Api-Version, with x-sb-error-code either way")
    func envelopes() async throws {
        try await withSandbox { s in
            let body: JSON = ["type": "sms", "phone": "+41791234567", "token": "000000"]
            let new = try await s.supabase("POST", "/verify", body)
            #expect(new.status == 403)
            #expect(new.json == ["code": "otp_expired", "message": "Token has expired or is invalid"])
            #expect(new.headers["x-supabase-api-version"] == "2024-01-01")
            let legacy = try await s.supabase("POST", "/verify", body, headers: ["apikey": s.vars["supabase_anon_key"]!])
            #expect(legacy.status == 403)
            #expect(legacy.json == ["code": 403, "error_code": "otp_expired", "msg": "Token has expired or is invalid"])
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
        ("/verify", JSON.object(["phone": .string("+41791234567"), "token": .string("123456")]),
         "Verify requires a verification type"),
        ("/verify", JSON.object(["type": .string("carrier-pigeon"), "phone": .string("+41791234567"), "token": .string("123456")]),
         "Unsupported verification type"),
        ("/verify", JSON.object(["type": .string("sms"), "phone": .string("+41791234567")]),
         "Verify requires either a token or a token hash"),
    ]

    @Test("phone validation and verify validation errors are 400 validation_failed", arguments: validationCases)
    func validation(path: String, body: JSON, message: String) async throws {
        try await withSandbox { s in
            let answer = try await s.supabase("POST", path, body)
            #expect(answer.status == 400)
            #expect(answer.json == ["code": "validation_failed", "message": .string(message)])
            #expect(answer.headers["x-sb-error-code"] == "validation_failed")
        }
    }

    @Test("create_user false for an unknown phone is 422 otp_disabled")
    func signupsDisabled() async throws {
        try await withSandbox { s in
            let answer = try await s.supabase("POST", "/otp", ["phone": "+41791234567", "create_user": false])
            #expect(answer.status == 422)
            #expect(answer["code"] == "otp_disabled")
        }
    }

    @Test("a second send within the window is 429 over_sms_send_rate_limit; after the window it is allowed")
    func rateLimit() async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(accounts: accounts { $0.supabase.sendInterval = 60 }, clock: clock) { s in
            #expect(try await s.supabase("POST", "/otp", ["phone": "+41791234567"]).status == 200)
            let limited = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            #expect(limited.status == 429)
            #expect(limited["code"] == "over_sms_send_rate_limit")
            #expect(limited["message"] == "For security purposes, you can only request this after 60 seconds.")
            #expect(limited.headers["x-sb-error-code"] == "over_sms_send_rate_limit")
            // Per phone: another number is not limited.
            #expect(try await s.supabase("POST", "/otp", ["phone": "+41791234568"]).status == 200)
            // One second before the window ends it is still closed, and says so...
            clock.advance(by: 59)
            let stillLimited = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            #expect(stillLimited.status == 429)
            #expect(stillLimited["message"] == "For security purposes, you can only request this after 1 seconds.")
            // ...and when it ends, the phone may be sent a code again.
            clock.advance(by: 1)
            #expect(try await s.supabase("POST", "/otp", ["phone": "+41791234567"]).status == 200)
        }
    }

    @Test("an SMS code expires")
    func otpExpiry() async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(accounts: accounts { $0.supabase.otpLifetime = 60; $0.supabase.sendInterval = 60 },
                              clock: clock) { s in
            _ = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            let code = try await s.latestCode(to: "+41791234567")
            clock.advance(by: 60)
            let verify = try await s.supabase("POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(code)])
            #expect(verify.status == 403)
            #expect(verify["code"] == "otp_expired")
            // A wrong code is refused the same way, so show that time is what refused it: a fresh code used one
            // second before the end of its lifetime verifies (the send window has passed, so it may be sent).
            try #require(try await s.supabase("POST", "/otp", ["phone": "+41791234567"]).status == 200)
            let fresh = try await s.latestCode(to: "+41791234567")
            clock.advance(by: 59)
            let inTime = try await s.supabase("POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": .string(fresh)])
            #expect(inTime.status == 200)
        }
    }

    @Test("a test phone's fixed code verifies without a send and again after use; sends to it are still rate-limited")
    func testPhone() async throws {
        try await withSandbox { s in
            let first = try await s.supabaseSignIn()
            let second = try await s.supabaseSignIn()
            #expect(first["user"]?["id"] == second["user"]?["id"])
            #expect(first["user"]?["phone"] == "15555550100")
            #expect(try await s.supabase("POST", "/otp", ["phone": .string(s.vars["phone"]!)]).status == 200)
            #expect(try await s.supabase("POST", "/otp", ["phone": .string(s.vars["phone"]!)]).status == 429)
            // No SMS for test numbers.
            #expect(try await s.get("/__sandbox/outbox/latest?to=%2B15555550100").status == 404)
            let wrong = try await s.supabase("POST", "/verify", ["type": "sms", "phone": .string(s.vars["phone"]!), "token": "000001"])
            #expect(wrong.status == 403)
        }
    }

    @Test("refresh rotates; a rotated-out token is refresh_token_already_used and kills the family; unknown is not_found")
    func refresh() async throws {
        try await withSandbox { s in
            let session = try await s.supabaseSignIn()
            let first = try #require(session["refresh_token"]?.stringValue)
            let rotated = try await s.supabase("POST", "/token?grant_type=refresh_token", ["refresh_token": .string(first)])
            #expect(rotated.status == 200)
            let second = try #require(rotated["refresh_token"]?.stringValue)
            #expect(second != first)
            #expect(rotated["user"]?["id"] == session["user"]?["id"])

            let reuse = try await s.supabase("POST", "/token?grant_type=refresh_token", ["refresh_token": .string(first)])
            #expect(reuse.status == 400)
            #expect(reuse.json == ["code": "refresh_token_already_used", "message": "Invalid Refresh Token: Already Used"])
            let newest = try await s.supabase("POST", "/token?grant_type=refresh_token", ["refresh_token": .string(second)])
            #expect(newest.status == 400)
            #expect(newest["code"] == "refresh_token_already_used")

            let unknown = try await s.supabase("POST", "/token?grant_type=refresh_token", ["refresh_token": "nope"])
            #expect(unknown.status == 400)
            #expect(unknown.json == ["code": "refresh_token_not_found", "message": "Invalid Refresh Token: Refresh Token Not Found"])
        }
    }

    @Test("/user: 200 with a good token, 401 no_authorization without, 403 bad_jwt for bad or expired tokens")
    func user() async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(clock: clock) { s in
            let session = try await s.supabaseSignIn()
            let token = try #require(session["access_token"]?.stringValue)
            let user = try await s.supabase("GET", "/user", bearer: token)
            #expect(user.status == 200)
            #expect(user["phone"] == "15555550100")
            #expect(user["id"] == session["user"]?["id"])

            let missing = try await s.supabase("GET", "/user")
            #expect(missing.status == 401)
            #expect(missing["code"] == "no_authorization")
            #expect(missing.headers["www-authenticate"] == nil)
            let forged = try await s.supabase("GET", "/user", bearer: tampered(token))
            #expect(forged.status == 403)
            #expect(forged["code"] == "bad_jwt")
            #expect(forged.headers["x-sb-error-code"] == "bad_jwt")
            // The clock started on a whole second, so exp is exactly issue + lifetime: the token works one
            // second before that instant and is refused at it.
            clock.advance(by: SandboxAccounts.defaults.supabase.accessTokenLifetime - 1)
            #expect(try await s.supabase("GET", "/user", bearer: token).status == 200)
            clock.advance(by: 1)
            let expired = try await s.supabase("GET", "/user", bearer: token)
            #expect(expired.status == 403)
            #expect(expired["code"] == "bad_jwt")
            #expect(expired.headers["www-authenticate"] == nil)
        }
    }

    @Test("logout answers 204 and ends the session: the token then gets 403 session_not_found, its refresh token not_found")
    func logout() async throws {
        try await withSandbox { s in
            let session = try await s.supabaseSignIn()
            let token = try #require(session["access_token"]?.stringValue)
            let logout = try await s.supabase("POST", "/logout?scope=global", bearer: token)
            #expect(logout.status == 204)
            #expect(logout.text.isEmpty)
            let user = try await s.supabase("GET", "/user", bearer: token)
            #expect(user.status == 403)
            #expect(user.json == ["code": "session_not_found", "message": "Session from session_id claim in JWT does not exist"])
            let refresh = try await s.supabase("POST", "/token?grant_type=refresh_token",
                                               ["refresh_token": session["refresh_token"]!])
            #expect(refresh["code"] == "refresh_token_not_found")
        }
    }

    @Test("logout with scope local ends only this session")
    func logoutLocal() async throws {
        try await withSandbox { s in
            let one = try #require(try await s.supabaseSignIn()["access_token"]?.stringValue)
            let two = try #require(try await s.supabaseSignIn()["access_token"]?.stringValue)
            #expect(try await s.supabase("POST", "/logout?scope=local", bearer: one).status == 204)
            #expect(try await s.supabase("GET", "/user", bearer: one).status == 403)
            #expect(try await s.supabase("GET", "/user", bearer: two).status == 200)
        }
    }
}
