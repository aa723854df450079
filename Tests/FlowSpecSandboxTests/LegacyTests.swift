import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("Legacy Repair Minder backend on its own port (docs/systems/repairminder-legacy.md)", .timeLimit(.minutes(5)))
struct LegacyTests {
    @Test(
        "a 2FA account: requiresTwoFactor and an emailed code, then tokens with twoFactorToken, all in {success, data, error}",
        arguments: SandboxTestMode.allCases)
    func twoFactor(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let email = s.vars["legacy_email"]!, password = s.vars["legacy_password"]!
            let first = try await s.post(
                "/api/auth/login", ["email": .string(email), "password": .string(password)], on: s.legacy)
            #expect(first.status == 200)
            #expect(first["success"] == true)
            #expect(first["error"] == .null)
            #expect(first["data"]?["requiresTwoFactor"] == true)
            #expect(first["data"]?["userId"]?.stringValue != nil)
            #expect(first["data"]?["token"] == nil)
            let code = try await s.latestCode(to: email)
            let second = try await s.post(
                "/api/auth/login",
                [
                    "email": .string(email), "password": .string(password),
                    "twoFactorToken": .string(code),
                ], on: s.legacy)
            #expect(second.status == 200)
            let data = try #require(second["data"])
            #expect(data["token"]?.stringValue != nil)
            #expect(data["refreshToken"]?.stringValue != nil)
            #expect(data["expiresIn"] == 900)
            #expect(data["user"]?["id"] == first["data"]?["userId"])
            #expect(data["user"]?["twoFactorEnabled"] == true)
            #expect(data["company"]?["currencyCode"] == "GBP")
            let me = try await s.get("/api/auth/me", on: s.legacy, bearer: data["token"]?.stringValue)
            #expect(me["data"]?["user"]?["email"] == .string(email))
            // The same code does not work twice.
            let replay = try await s.post(
                "/api/auth/login",
                [
                    "email": .string(email), "password": .string(password),
                    "twoFactorToken": .string(code),
                ], on: s.legacy)
            #expect(replay.status == 401)
        }
    }

    @Test(
        "wrong password and wrong code are success false with the scenarios' messages",
        arguments: SandboxTestMode.allCases)
    func refusals(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let email = s.vars["legacy_email"]!, password = s.vars["legacy_password"]!
            let wrong = try await s.post(
                "/api/auth/login", ["email": .string(email), "password": "wrong-password"], on: s.legacy)
            #expect(wrong.status == 401)
            #expect(wrong.json == ["success": false, "data": nil, "error": "Invalid email or password"])
            _ = try await s.post(
                "/api/auth/login", ["email": .string(email), "password": .string(password)], on: s.legacy)
            let code = try await s.latestCode(to: email)
            let badCode = code == "000000" ? "111111" : "000000"
            let refused = try await s.post(
                "/api/auth/login",
                [
                    "email": .string(email), "password": .string(password),
                    "twoFactorToken": .string(badCode),
                ], on: s.legacy)
            #expect(refused.status == 401)
            #expect(refused.json == ["success": false, "data": nil, "error": "Invalid verification code"])
        }
    }

    @Test("a magic-link account is told requiresMagicLink", arguments: SandboxTestMode.allCases)
    func magicLink(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let answer = try await s.post(
                "/api/auth/login", ["email": "legacy-magic@example.com", "password": "legacy-magic-horse"],
                on: s.legacy)
            #expect(answer["success"] == true)
            #expect(answer["data"]?["requiresMagicLink"] == true)
        }
    }

    @Test(
        "the legacy port serves only the legacy shape; the main port's login is the current API's",
        arguments: SandboxTestMode.allCases)
    func portsAreSeparate(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let legacyLogin = try await s.post(
                "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"],
                on: s.legacy)
            #expect(legacyLogin.json == ["success": false, "data": nil, "error": "Invalid email or password"])
            #expect(try await s.get("/auth/v1/user", on: s.legacy).status == 404)
        }
    }

    @Test("legacy refresh rotates and logout revokes, in the envelope", arguments: SandboxTestMode.allCases)
    func refreshAndLogout(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let answer = try await s.post(
                "/api/auth/login", ["email": "legacy-direct@example.com", "password": "legacy-direct-horse"],
                on: s.legacy)
            let refreshToken = try #require(answer["data"]?["refreshToken"]?.stringValue)
            let refreshed = try await s.post("/api/auth/refresh", ["refreshToken": .string(refreshToken)], on: s.legacy)
            #expect(refreshed["success"] == true)
            let token = try #require(refreshed["data"]?["token"]?.stringValue)
            let logout = try await s.post(
                "/api/auth/logout", on: s.legacy, headers: ["Authorization": "Bearer \(token)"])
            #expect(logout.json == ["success": true, "data": nil, "error": nil])
            #expect(try await s.get("/api/auth/me", on: s.legacy, bearer: token).status == 401)
        }
    }
}
