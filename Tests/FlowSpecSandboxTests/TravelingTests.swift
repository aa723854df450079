import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("Traveling /v1/auth (docs/systems/traveling.md)", .timeLimit(.minutes(5)))
struct TravelingTests {
    func login(_ s: SandboxFixture, password: String = "password123") async throws -> Answer {
        try await s.post(
            "/v1/auth/login", ["email": .string(s.vars["traveling_email"]!), "password": .string(password)])
    }

    @Test("login answers user and both tokens inside {\"data\": ...}", arguments: SandboxTestMode.allCases)
    func loginShape(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let answer = try await login(s)
            #expect(answer.status == 200)
            let data = try #require(answer["data"])
            #expect(data["user"] == ["id": 1, "email": "test@softserve.com", "firstName": "John", "lastName": "Doe"])
            #expect(data["accessToken"]?.stringValue?.hasPrefix("eyJ") == true)
            #expect(data["refreshToken"]?.stringValue?.hasPrefix("eyJ") == true)
        }
    }

    @Test(
        "wrong password is 401 and a malformed login 400, with the server's message",
        arguments: SandboxTestMode.allCases)
    func loginErrors(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let wrong = try await login(s, password: "wrong-password")
            #expect(wrong.status == 401)
            #expect(wrong.json == ["statusCode": 401, "message": "Invalid email or password", "error": "Unauthorized"])
            let short = try await login(s, password: "x")
            #expect(short.status == 400)
            #expect(short["message"] == "password must be longer than or equal to 8 characters")
        }
    }

    @Test(
        "me answers the user in {\"data\": {\"user\": ...}}; no, bad or expired tokens are 401",
        arguments: SandboxTestMode.allCases)
    func me(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            let token = try #require(try await login(s)["data"]?["accessToken"]?.stringValue)
            let me = try await s.get("/v1/auth/me", bearer: token)
            #expect(me.status == 200)
            #expect(
                me.json == [
                    "data": [
                        "user": ["email": "test@softserve.com", "firstName": "John", "lastName": "Doe", "id": "1"]
                    ]
                ])
            #expect(try await s.get("/v1/auth/me").status == 401)
            #expect(try await s.get("/v1/auth/me", bearer: tampered(token)).status == 401)
            // The clock started on a whole second, so exp is exactly issue + lifetime: the token works one
            // second before that instant and is refused at it.
            clock.advance(by: SandboxAccounts.defaults.traveling.accessTokenLifetime - 1)
            #expect(try await s.get("/v1/auth/me", bearer: token).status == 200)
            clock.advance(by: 1)
            let expired = try await s.get("/v1/auth/me", bearer: token)
            #expect(expired.status == 401)
            #expect(expired.json == ["statusCode": 401, "message": "Unauthorized"])
        }
    }

    @Test(
        "refresh rotates the pair; the old refresh token is refused; the new access token works",
        arguments: SandboxTestMode.allCases)
    func refresh(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let first = try #require(try await login(s)["data"]?["refreshToken"]?.stringValue)
            let refreshed = try await s.post("/v1/auth/refresh", ["refreshToken": .string(first)])
            #expect(refreshed.status == 200)
            let data = try #require(refreshed["data"])
            let next = try #require(data["refreshToken"]?.stringValue)
            #expect(next != first)
            #expect(try await s.get("/v1/auth/me", bearer: data["accessToken"]?.stringValue).status == 200)
            let reuse = try await s.post("/v1/auth/refresh", ["refreshToken": .string(first)])
            #expect(reuse.status == 401)
            #expect(reuse["message"] == "Invalid refresh token")
            #expect(try await s.post("/v1/auth/refresh", ["refreshToken": .string(next)]).status == 200)
            #expect(try await s.post("/v1/auth/refresh", ["refreshToken": "garbage"]).status == 401)
        }
    }
}
