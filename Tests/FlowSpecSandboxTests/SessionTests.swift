import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite(
    "Repair Minder staff sessions: refresh, /me, logout, JWTs (docs/systems/repairminder.md)", .timeLimit(.minutes(5)))
struct SessionTests {
    @Test("refresh rotates: a new pair, and the old refresh token is single-use", arguments: SandboxTestMode.allCases)
    func rotation(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let signedIn = try await s.staffSignIn()
            let refreshed = try await s.refresh(signedIn.refreshToken)
            #expect(refreshed.status == 200)
            #expect(refreshed["expiresIn"] == 900)
            let next = try #require(refreshed["refreshToken"]?.stringValue)
            #expect(next != signedIn.refreshToken)
            #expect(refreshed["token"]?.stringValue != nil)
            #expect(try await s.get("/api/auth/me", bearer: refreshed["token"]?.stringValue).status == 200)
        }
    }

    @Test(
        "reusing a rotated-out token is detected and revokes the whole family, newest token included",
        arguments: SandboxTestMode.allCases)
    func reuseRevokesFamily(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let signedIn = try await s.staffSignIn()
            let refreshed = try await s.refresh(signedIn.refreshToken)
            let newest = try #require(refreshed["refreshToken"]?.stringValue)
            let access = try #require(refreshed["token"]?.stringValue)

            let reuse = try await s.refresh(signedIn.refreshToken)
            #expect(reuse.status == 401)
            #expect(reuse.json == ["error": "Token reuse detected. All sessions revoked. Please log in again."])
            let afterwards = try await s.refresh(newest)
            #expect(afterwards.status == 401)
            #expect(try await s.get("/api/auth/me", bearer: access).status == 401)
        }
    }

    @Test("another sign-in's family is not touched by a reuse", arguments: SandboxTestMode.allCases)
    func otherFamiliesSurvive(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let phone = try await s.staffSignIn()
            let laptop = try await s.staffSignIn(userAgent: SandboxFixture.webUA)
            _ = try await s.refresh(phone.refreshToken)
            _ = try await s.refresh(phone.refreshToken) // reuse
            #expect(try await s.refresh(laptop.refreshToken, userAgent: SandboxFixture.webUA).status == 200)
        }
    }

    @Test("unknown and expired refresh tokens get the documented messages", arguments: SandboxTestMode.allCases)
    func refreshErrors(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            let unknown = try await s.refresh("not-a-token")
            #expect(unknown.status == 401)
            #expect(unknown.error == "Invalid refresh token")
            let signedIn = try await s.staffSignIn()
            clock.advance(by: SandboxAccounts.defaults.lifetimes.refreshTokenMobile)
            let expired = try await s.refresh(signedIn.refreshToken)
            #expect(expired.status == 401)
            #expect(expired.error == "Refresh token expired")
        }
    }

    @Test("a user deactivated meanwhile cannot refresh", arguments: SandboxTestMode.allCases)
    func deactivatedMeanwhile(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let signedIn = try await s.staffSignIn()
            let switched = try await s.post("/__sandbox/staff/deactivate", ["email": "staff@example.com"])
            #expect(switched.status == 200)
            let refreshed = try await s.refresh(signedIn.refreshToken)
            #expect(refreshed.status == 401)
            #expect(refreshed.error == "User account is no longer active")
            #expect(try await s.get("/api/auth/me", bearer: signedIn.token).status == 401)
        }
    }

    @Test(
        "the access token is an HS256 JWT with the documented staff claims, exp and iat",
        arguments: SandboxTestMode.allCases)
    func staffClaims(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let token = try await s.staffSignIn().token
            let header = JSON.parse(Base64URL.decode(String(token.split(separator: ".")[0])) ?? [])
            #expect(header?["alg"] == "HS256")
            let c = claims(of: token)
            let staff = SandboxAccounts.defaults.staff[0]
            #expect(c["userId"] == .string(staff.id))
            #expect(c["companyId"] == .string(staff.companyID))
            #expect(c["role"] == "admin")
            #expect(c["phiAccessLevel"] == "full")
            #expect(c["dataClassification"] == "internal")
            #expect(c["permissions"] == [])
            #expect(c["isMobile"] == true)
            let iat = try #require(c["iat"]?.intValue), exp = try #require(c["exp"]?.intValue)
            #expect((899...900).contains(exp - iat))
        }
    }

    @Test(
        "a mobile User-Agent gets isMobile and a 90-day refresh token; a browser gets 7 days",
        arguments: [
            (SandboxFixture.mobileUA, true), ("MyApp/2 (Linux; Android 14)", true), (SandboxFixture.webUA, false),
        ],
        SandboxTestMode.allCases)
    func mobileLifetime(_ agent: (userAgent: String, mobile: Bool), mode: SandboxTestMode) async throws {
        let (userAgent, mobile) = agent
        let clock = ManualSandboxClock()
        let days: Double = mobile ? 90 : 7
        try await withSandbox(mode, clock: clock) { s in
            let signedIn = try await s.staffSignIn(userAgent: userAgent)
            #expect(claims(of: signedIn.token)["isMobile"] == .bool(mobile))
            // One second before the end of its lifetime the refresh token still works (and the refresh slides
            // the family's expiry)...
            clock.advance(by: days * 86400 - 1)
            let refreshed = try await s.refresh(signedIn.refreshToken, userAgent: userAgent)
            #expect(refreshed.status == 200)
            let next = try #require(refreshed["refreshToken"]?.stringValue)
            // ...and a whole lifetime after that refresh it has expired.
            clock.advance(by: days * 86400)
            let expired = try await s.refresh(next, userAgent: userAgent)
            #expect(expired.status == 401)
            #expect(expired.error == "Refresh token expired")
        }
    }

    @Test("/me answers user, company and hasPassword", arguments: SandboxTestMode.allCases)
    func me(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let token = try await s.staffSignIn().token
            let me = try await s.get("/api/auth/me", bearer: token)
            #expect(me.status == 200)
            #expect(me["hasPassword"] == true)
            #expect(me["user"]?["email"] == "staff@example.com")
            #expect(me["user"]?["company_id"] == .string(SandboxAccounts.DefaultIDs.acme))
            #expect(me["company"]?["name"] == "Acme Repairs")
            #expect(me["user"]?["last_login"]?.stringValue != nil)
        }
    }

    @Test(
        "missing, malformed, tampered and expired tokens are 401 with an error body",
        arguments: SandboxTestMode.allCases)
    func badTokens(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            let token = try await s.staffSignIn().token
            #expect(try await s.get("/api/auth/me", bearer: token).status == 200)

            let missing = try await s.get("/api/auth/me")
            #expect(missing.status == 401)
            #expect(missing.error == "Authentication required")
            let malformed = try await s.get("/api/auth/me", bearer: "not.a.jwt")
            #expect(malformed.status == 401)
            #expect(malformed.error == "Invalid token")
            let forged = try await s.get("/api/auth/me", bearer: tampered(token))
            #expect(forged.status == 401)
            #expect(forged.error == "Invalid token")

            // The clock started on a whole second, so exp is exactly issue + lifetime: the token works one
            // second before that instant and is refused at it.
            let lifetime = SandboxAccounts.defaults.lifetimes.accessToken
            clock.advance(by: lifetime - 1)
            #expect(try await s.get("/api/auth/me", bearer: token).status == 200)
            clock.advance(by: 1)
            let expired = try await s.get("/api/auth/me", bearer: token)
            #expect(expired.status == 401)
            #expect(expired.error == "Token expired")
        }
    }

    @Test(
        "a token signed by another sandbox is refused (random secret per instance)",
        arguments: SandboxTestMode.allCases)
    func secretPerInstance(mode: SandboxTestMode) async throws {
        let foreign = try await withSandbox(mode) { s in try await s.staffSignIn().token }
        try await withSandbox(mode) { s in
            let answer = try await s.get("/api/auth/me", bearer: foreign)
            #expect(answer.status == 401)
        }
    }

    @Test(
        "logout answers success and revokes the family: access and refresh tokens stop working",
        arguments: SandboxTestMode.allCases)
    func logout(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let signedIn = try await s.staffSignIn()
            let logout = try await s.post("/api/auth/logout", headers: ["Authorization": "Bearer \(signedIn.token)"])
            #expect(logout.status == 200)
            #expect(logout.json == ["success": true])
            let me = try await s.get("/api/auth/me", bearer: signedIn.token)
            #expect(me.status == 401)
            #expect(me.error != nil)
            #expect(try await s.refresh(signedIn.refreshToken).status == 401)
        }
    }
}
