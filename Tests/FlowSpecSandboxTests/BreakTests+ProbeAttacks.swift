import SandboxTesting
import Testing

@testable import FlowSpecSandbox

/// The breaks behind the probe's newer attacks: the access token after logout, token lifetimes, code guessing, a code
/// replayed into a new login, garbage refresh tokens and another user's object. Each test shows the break changes
/// what a client sees, and that the healthy sandbox keeps the promise against the very same requests.
extension BreakTests {
    @Test(
        "supabase-logout-keeps-access-token: after logout the access token still opens /user; the refresh token is refused as ever",
        arguments: SandboxTestMode.allCases)
    func supabaseLogoutKeepsAccessToken(mode: SandboxTestMode) async throws {
        for broken in [false, true] {
            try await withSandbox(mode, breaks: broken ? [.supabaseLogoutKeepsAccessToken] : []) { s in
                let session = try await s.supabaseSignIn()
                let token = try #require(session["access_token"]?.stringValue)
                #expect(try await s.supabase("POST", "/logout", bearer: token).status == 204)
                let user = try await s.supabase("GET", "/user", bearer: token)
                if broken {
                    #expect(user.status == 200)
                } else {
                    #expect(user.status == 403)
                    #expect(user.headers["x-sb-error-code"] == "session_not_found")
                }
                // Unlike supabase-logout-keeps-session, the logout did end the session's refresh tokens.
                let refresh = try await s.supabase(
                    "POST", "/token?grant_type=refresh_token", ["refresh_token": session["refresh_token"]!])
                #expect(refresh.status == 400)
                #expect(refresh["code"] == "refresh_token_not_found")
                // A forged token is still refused: the break skips the session lookup, not the signature.
                #expect(try await s.supabase("GET", "/user", bearer: tampered(token)).status == 403)
            }
        }
    }

    @Test(
        "long-access-lifetime: staff access tokens live 30 days, in the JWT and in expiresIn; the healthy ones 15 minutes",
        arguments: SandboxTestMode.allCases)
    func longAccessLifetime(mode: SandboxTestMode) async throws {
        for broken in [false, true] {
            let clock = ManualSandboxClock()
            try await withSandbox(mode, breaks: broken ? [.longAccessLifetime] : [], clock: clock) { s in
                let lifetime = broken ? 30 * 24 * 3600 : 900
                let signedIn = try await s.staffSignIn()
                let jwt = claims(of: signedIn.token)
                let exp = try #require(jwt["exp"]?.intValue), iat = try #require(jwt["iat"]?.intValue)
                #expect(exp - iat == lifetime)
                #expect(signedIn.answer["expiresIn"] == .int(lifetime))
                let refreshed = try await s.refresh(signedIn.refreshToken)
                #expect(refreshed["expiresIn"] == .int(lifetime))
                let refreshedClaims = claims(of: try #require(refreshed["token"]?.stringValue))
                #expect(
                    try #require(refreshedClaims["exp"]?.intValue) - (try #require(refreshedClaims["iat"]?.intValue))
                        == lifetime)
                // What else a client can see of the lifetimes: the refresh token is opaque (not a JWT, no exp), and
                // neither answer carries a refresh-token lifetime.
                #expect(claims(of: signedIn.refreshToken) == .null)
                if case .object(let fields) = refreshed.json {
                    #expect(Set(fields.keys) == ["token", "refreshToken", "expiresIn"])
                }
                #expect(signedIn.answer["refreshExpiresIn"] == nil && signedIn.answer["refresh_expires_in"] == nil)
                // The lifetime is real: 15 minutes later the healthy token is expired, the broken one is not.
                clock.advance(by: 900)
                let me = try await s.get("/api/auth/me", bearer: refreshed["token"]?.stringValue)
                #expect(me.status == (broken ? 200 : 401))
            }
        }
    }

    /// Logs in and asks for a 2FA code: the user id, and the code from the outbox.
    private func passwordAndCode(
        _ s: SandboxFixture, email: String = "staff@example.com",
        password: String = "correct-horse"
    ) async throws -> (userID: JSON, code: String) {
        let login = try await s.post("/api/auth/login", ["email": .string(email), "password": .string(password)])
        let userID = try #require(login["userId"])
        #expect(try await s.post("/api/auth/2fa/request", ["userId": userID, "email": .string(email)]).status == 200)
        return (userID, try await s.latestCode(to: email))
    }

    @Test(
        "no-code-attempt-limit: any number of wrong codes leaves the live 2FA code valid; healthy, the fifth wrong code burns it",
        arguments: SandboxTestMode.allCases)
    func noCodeAttemptLimit(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.noCodeAttemptLimit]) { s in
            let (userID, code) = try await passwordAndCode(s)
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<20 {
                let refused = try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(wrong)])
                #expect(refused.status == 401)
                #expect(refused.error == "Invalid verification code")
            }
            #expect(try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(code)]).status == 200)
        }
        // Healthy: exactly five wrong codes. After four the right code still signs in; after five it is refused like a
        // wrong one (401 "Invalid verification code", no 429), and only a new 2fa/request gives a usable code again.
        try await withSandbox(mode) { s in
            for wrongCodes in [4, 5] {
                let (userID, code) = try await passwordAndCode(s)
                let wrong = code == "000000" ? "111111" : "000000"
                for _ in 0..<wrongCodes {
                    #expect(
                        try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(wrong)]).status
                            == 401)
                }
                let right = try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(code)])
                if wrongCodes == 4 {
                    #expect(right.status == 200)
                } else {
                    #expect(right.status == 401)
                    #expect(right.json == ["error": "Invalid verification code"])
                    // The 2FA window is still open: a new code (with a fresh count) signs in.
                    #expect(
                        try await s.post("/api/auth/2fa/request", ["userId": userID, "email": "staff@example.com"])
                            .status == 200)
                    let fresh = try await s.latestCode(to: "staff@example.com")
                    #expect(
                        try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(fresh)]).status
                            == 200)
                }
            }
        }
    }

    @Test(
        "code-survives-new-login: a 2FA code that signed in signs in again in a new login, while the instant replay is refused for its closed login",
        arguments: SandboxTestMode.allCases)
    func codeSurvivesNewLogin(mode: SandboxTestMode) async throws {
        for broken in [false, true] {
            try await withSandbox(mode, breaks: broken ? [.codeSurvivesNewLogin] : []) { s in
                let first = try await passwordAndCode(s)
                #expect(
                    try await s.post("/api/auth/2fa/verify", ["userId": first.userID, "code": .string(first.code)])
                        .status == 200)
                // The very same verify again: refused on both, because that login is over, whatever the code.
                let replay = try await s.post(
                    "/api/auth/2fa/verify", ["userId": first.userID, "code": .string(first.code)])
                #expect(replay.status == 401)
                #expect(replay.error == "Two-factor session expired. Please log in again.")
                // A new login of the same account, with a fresh code sent: the old code is what tells them apart.
                let second = try await passwordAndCode(s)
                let old = try await s.post(
                    "/api/auth/2fa/verify", ["userId": second.userID, "code": .string(first.code)])
                if broken {
                    #expect(old.status == 200)
                    #expect(old["token"]?.stringValue != nil)
                } else {
                    #expect(old.status == 401)
                    #expect(old.error == "Invalid verification code")
                    #expect(
                        try await s.post(
                            "/api/auth/2fa/verify", ["userId": second.userID, "code": .string(second.code)]
                        ).status == 200)
                }
            }
        }
        // codes-reusable is the other half: the instant replay signs in, but a new login's fresh code replaces the old.
        try await withSandbox(mode, breaks: [.codesReusable]) { s in
            let first = try await passwordAndCode(s)
            #expect(
                try await s.post("/api/auth/2fa/verify", ["userId": first.userID, "code": .string(first.code)]).status
                    == 200)
            #expect(
                try await s.post("/api/auth/2fa/verify", ["userId": first.userID, "code": .string(first.code)]).status
                    == 200)
            let second = try await passwordAndCode(s)
            if second.code != first.code {
                #expect(
                    try await s.post("/api/auth/2fa/verify", ["userId": second.userID, "code": .string(first.code)])
                        .status == 401)
            }
        }
    }

    @Test(
        "code-survives-new-login: the surviving code still expires with its lifetime",
        arguments: SandboxTestMode.allCases)
    func survivingCodeExpires(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, breaks: [.codeSurvivesNewLogin], clock: clock) { s in
            let first = try await passwordAndCode(s)
            #expect(
                try await s.post("/api/auth/2fa/verify", ["userId": first.userID, "code": .string(first.code)]).status
                    == 200)
            clock.advance(by: SandboxAccounts.defaults.lifetimes.code)
            let second = try await passwordAndCode(s)
            #expect(
                try await s.post("/api/auth/2fa/verify", ["userId": second.userID, "code": .string(first.code)]).status
                    == 401)
        }
    }

    @Test(
        "refresh-garbage-crashes: a short or truncated refresh token answers 500; healthy, every token not issued is 401 Invalid refresh token",
        arguments: SandboxTestMode.allCases)
    func refreshGarbageCrashes(mode: SandboxTestMode) async throws {
        for broken in [false, true] {
            try await withSandbox(mode, breaks: broken ? [.refreshGarbageCrashes] : []) { s in
                let signedIn = try await s.staffSignIn()
                let truncated = String(signedIn.refreshToken.prefix(signedIn.refreshToken.count / 2))
                for garbage in [truncated, "flowspec-probe-garbage", "x"] {
                    let answer = try await s.refresh(garbage)
                    if broken {
                        #expect(answer.status == 500, "\(garbage.count) characters")
                        #expect(answer.json == ["error": "Internal server error"])
                    } else {
                        #expect(answer.status == 401)
                        #expect(answer.json == ["error": "Invalid refresh token"])
                    }
                }
                // Tokens of the issued length (and the live suite's long unknown token) are looked up and refused on
                // both, so the live suite's invalid-token scenario passes against the break.
                for unknown in [Secrets.opaqueToken(), "not-a-refresh-token-issued-by-this-backend"] {
                    let answer = try await s.refresh(unknown)
                    #expect(answer.status == 401)
                    #expect(answer.error == "Invalid refresh token")
                }
                #expect(try await s.refresh("").status == 400)
                #expect(try await s.refresh(signedIn.refreshToken).status == 200)
            }
        }
    }

    @Test(
        "notes-any-owner: another staff member reads a note; healthy, only its author does",
        arguments: SandboxTestMode.allCases)
    func notesAnyOwner(mode: SandboxTestMode) async throws {
        for broken in [false, true] {
            try await withSandbox(mode, breaks: broken ? [.notesAnyOwner] : []) { s in
                let author = try await s.staffSignIn().token
                let other = try await s.staffSignIn(email: "staff2@example.com", password: "second-horse").token
                let created = try await s.post(
                    "/api/sandbox/notes", ["text": "mine"], headers: ["Authorization": "Bearer \(author)"])
                let id = try #require(created["note"]?["id"]?.stringValue)
                #expect(try await s.get("/api/sandbox/notes/\(id)", bearer: author).status == 200)
                let read = try await s.get("/api/sandbox/notes/\(id)", bearer: other)
                if broken {
                    #expect(read.status == 200)
                    #expect(read["note"]?["text"] == "mine")
                } else {
                    #expect(read.status == 404)
                    #expect(read.json == ["error": "Note not found"])
                }
                // Authentication is untouched by the break.
                #expect(try await s.get("/api/sandbox/notes/\(id)").status == 401)
                #expect(try await s.get("/api/sandbox/notes/\(id)", bearer: tampered(other)).status == 401)
            }
        }
    }
}
