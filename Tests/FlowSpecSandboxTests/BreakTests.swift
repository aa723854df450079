import SandboxTesting
import Testing

@testable import FlowSpecSandbox

/// Each break must really change what a client can observe; otherwise it proves nothing about the live suite.
@Suite("Deliberately broken promises", .timeLimit(.minutes(5)))
struct BreakTests {
    @Test("every break has a kebab-case raw value and a one-line promise citing its source")
    func catalogue() {
        #expect(SandboxBreak.allCases.count >= 12)
        for brokenPromise in SandboxBreak.allCases {
            #expect(
                brokenPromise.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" },
                "\(brokenPromise.rawValue)")
            #expect(!brokenPromise.promise.contains("\n"))
            #expect(
                brokenPromise.promise.contains("seed") || brokenPromise.promise.contains("docs/systems/")
                    || brokenPromise.promise.contains("scenario") || brokenPromise.promise.contains("Repair Minder API")
                    || brokenPromise.promise.contains("RFC ") || brokenPromise.promise.contains("OWASP "),
                "\(brokenPromise.rawValue) cites no source")
        }
        #expect(Set(SandboxBreak.allCases.map(\.rawValue)).count == SandboxBreak.allCases.count)
    }

    @Test("two-factor-optional: login returns tokens directly", arguments: SandboxTestMode.allCases)
    func twoFactorOptional(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.twoFactorOptional]) { s in
            let login = try await s.post(
                "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
            #expect(login["token"]?.stringValue != nil)
            #expect(login["requiresTwoFactor"] == nil)
        }
    }

    @Test("codes-reusable: a 2FA code works twice", arguments: SandboxTestMode.allCases)
    func codesReusable(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.codesReusable]) { s in
            let login = try await s.post(
                "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
            _ = try await s.post("/api/auth/2fa/request", ["userId": login["userId"]!, "email": "staff@example.com"])
            let code = JSON.string(try await s.latestCode(to: "staff@example.com"))
            #expect(try await s.post("/api/auth/2fa/verify", ["userId": login["userId"]!, "code": code]).status == 200)
            #expect(try await s.post("/api/auth/2fa/verify", ["userId": login["userId"]!, "code": code]).status == 200)
        }
    }

    @Test("no-refresh-rotation: refresh hands back the same refresh token", arguments: SandboxTestMode.allCases)
    func noRotation(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.noRefreshRotation]) { s in
            let signedIn = try await s.staffSignIn()
            #expect(try await s.refresh(signedIn.refreshToken)["refreshToken"] == .string(signedIn.refreshToken))
        }
    }

    @Test(
        "no-reuse-detection and family-survives-reuse break reuse detection in their two ways",
        arguments: SandboxTestMode.allCases)
    func reuse(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.noReuseDetection]) { s in
            let signedIn = try await s.staffSignIn()
            _ = try await s.refresh(signedIn.refreshToken)
            #expect(try await s.refresh(signedIn.refreshToken).status == 200)
        }
        try await withSandbox(mode, breaks: [.familySurvivesReuse]) { s in
            let signedIn = try await s.staffSignIn()
            let newest = try #require(try await s.refresh(signedIn.refreshToken)["refreshToken"]?.stringValue)
            #expect(try await s.refresh(signedIn.refreshToken).status == 401)
            #expect(try await s.refresh(newest).status == 200)
        }
    }

    @Test("logout-keeps-session: the token still works after logout", arguments: SandboxTestMode.allCases)
    func logoutKeepsSession(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.logoutKeepsSession]) { s in
            let token = try await s.staffSignIn().token
            #expect(try await s.post("/api/auth/logout", headers: ["Authorization": "Bearer \(token)"]).status == 200)
            #expect(try await s.get("/api/auth/me", bearer: token).status == 200)
        }
    }

    @Test("accepts-tampered-token: a forged signature opens /me", arguments: SandboxTestMode.allCases)
    func acceptsTampered(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.acceptsTamperedToken]) { s in
            let token = try await s.staffSignIn().token
            #expect(try await s.get("/api/auth/me", bearer: tampered(token)).status == 200)
        }
    }

    @Test(
        "customer-enumeration and ignores-company-id change the customer answers",
        arguments: SandboxTestMode.allCases)
    func customerBreaks(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.customerEnumeration]) { s in
            let answer = try await s.post("/api/customer/auth/request-magic-link", ["email": "nobody@example.com"])
            #expect(answer.status == 404)
        }
        try await withSandbox(mode, breaks: [.ignoresCompanyID]) { s in
            let chosen = s.vars["multi_customer_company_id"]!
            let verify = try await s.customerVerify(email: s.vars["multi_customer_email"]!, companyID: chosen)
            #expect(verify["company"]?["id"] != .string(chosen))
        }
    }

    @Test("quarantine-open and quarantine-blocks-me flip the quarantine answers", arguments: SandboxTestMode.allCases)
    func quarantineBreaks(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.quarantineOpen]) { s in
            let token = try await s.staffSignIn(
                email: s.vars["quarantined_email"]!, password: s.vars["quarantined_password"]!
            ).token
            #expect(try await s.get("/api/orders", bearer: token).status == 200)
        }
        try await withSandbox(mode, breaks: [.quarantineBlocksMe]) { s in
            let token = try await s.staffSignIn(
                email: s.vars["quarantined_email"]!, password: s.vars["quarantined_password"]!
            ).token
            #expect(try await s.get("/api/auth/me", bearer: token).status == 403)
        }
    }

    @Test(
        "me-drops-email, wrong-error-message, deactivated-can-login, mobile-gets-web-lifetime",
        arguments: SandboxTestMode.allCases)
    func staffShapeBreaks(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.meDropsEmail]) { s in
            let me = try await s.get("/api/auth/me", bearer: try await s.staffSignIn().token)
            #expect(me["user"]?["email"] == nil)
        }
        try await withSandbox(mode, breaks: [.wrongErrorMessage]) { s in
            let login = try await s.post("/api/auth/login", ["email": "staff@example.com", "password": "nope"])
            #expect(login.error != "Invalid credentials")
        }
        try await withSandbox(mode, breaks: [.deactivatedCanLogin]) { s in
            let login = try await s.post(
                "/api/auth/login",
                [
                    "email": .string(s.vars["deactivated_email"]!),
                    "password": .string(s.vars["deactivated_password"]!),
                ])
            #expect(login.status == 200)
        }
        try await withSandbox(mode, breaks: [.mobileGetsWebLifetime]) { s in
            let token = try await s.staffSignIn().token
            #expect(claims(of: token)["isMobile"] == false)
        }
    }

    @Test(
        "the Supabase breaks change rate limiting, rotation, reuse, the bad_jwt status and logout",
        arguments: SandboxTestMode.allCases)
    func supabaseBreaks(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.supabaseOTPNoRateLimit]) { s in
            _ = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            #expect(try await s.supabase("POST", "/otp", ["phone": "+41791234567"]).status == 200)
        }
        try await withSandbox(mode, breaks: [.supabaseRefreshNoRotation]) { s in
            let token = try #require(try await s.supabaseSignIn()["refresh_token"])
            let refreshed = try await s.supabase("POST", "/token?grant_type=refresh_token", ["refresh_token": token])
            #expect(refreshed["refresh_token"] == token)
        }
        try await withSandbox(mode, breaks: [.supabaseOTPReusable]) { s in
            _ = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            let code = JSON.string(try await s.latestCode(to: "+41791234567"))
            #expect(
                try await s.supabase("POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": code]).status
                    == 200)
            #expect(
                try await s.supabase("POST", "/verify", ["type": "sms", "phone": "+41791234567", "token": code]).status
                    == 200)
        }
        for broken in [
            SandboxBreak.supabaseParentReuseRefused, .supabaseNoReuseDetection, .supabaseFamilySurvivesReuse,
        ] {
            let clock = ManualSandboxClock()
            try await withSandbox(mode, breaks: [broken], clock: clock) { s in
                func refresh(_ token: JSON?) async throws -> Answer {
                    try await s.supabase(
                        "POST", "/token?grant_type=refresh_token", ["refresh_token": try #require(token)])
                }
                let t0 = try await s.supabaseSignIn()["refresh_token"]
                clock.advance(by: 1)
                let t1 = try await refresh(t0)["refresh_token"]
                clock.advance(by: 1)
                let t2 = try await refresh(t1)["refresh_token"]
                clock.advance(by: 1)
                let parent = try await refresh(t1)
                let older = try await refresh(t0)
                clock.advance(by: 1)
                let active = try await refresh(t2)
                switch broken {
                case .supabaseParentReuseRefused:
                    #expect(parent["code"] == "refresh_token_already_used")
                case .supabaseNoReuseDetection:
                    #expect(parent["refresh_token"] == t2)
                    #expect(older.status == 200)
                    #expect(active.status == 200)
                default:
                    #expect(parent["refresh_token"] == t2)
                    #expect(older["code"] == "refresh_token_already_used")
                    #expect(active.status == 200)
                }
            }
        }
        try await withSandbox(mode, breaks: [.supabaseBadJWT401]) { s in
            let token = try #require(try await s.supabaseSignIn()["access_token"]?.stringValue)
            #expect(try await s.supabase("GET", "/user", bearer: tampered(token)).status == 401)
        }
        try await withSandbox(mode, breaks: [.supabaseLogoutKeepsSession]) { s in
            let token = try #require(try await s.supabaseSignIn()["access_token"]?.stringValue)
            #expect(try await s.supabase("POST", "/logout", bearer: token).status == 204)
            #expect(try await s.supabase("GET", "/user", bearer: token).status == 200)
        }
    }

    @Test("the Traveling and legacy breaks change their answers", arguments: SandboxTestMode.allCases)
    func otherBreaks(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.travelingNoEnvelope]) { s in
            let login = try await s.post("/v1/auth/login", ["email": "test@softserve.com", "password": "password123"])
            #expect(login["data"] == nil)
            #expect(login["accessToken"]?.stringValue != nil)
        }
        try await withSandbox(mode, breaks: [.travelingRefreshBroken]) { s in
            let login = try await s.post("/v1/auth/login", ["email": "test@softserve.com", "password": "password123"])
            #expect(
                try await s.post("/v1/auth/refresh", ["refreshToken": login["data"]!["refreshToken"]!]).status == 401)
        }
        let clock = ManualSandboxClock()
        try await withSandbox(mode, breaks: [.travelingAcceptsExpiredToken], clock: clock) { s in
            let login = try await s.post("/v1/auth/login", ["email": "test@softserve.com", "password": "password123"])
            let token = login["data"]?["accessToken"]?.stringValue
            clock.advance(by: SandboxAccounts.defaults.traveling.accessTokenLifetime)
            #expect(try #require(expiry(of: token)) <= clock.now(), "the token must really have expired")
            #expect(try await s.get("/v1/auth/me", bearer: token).status == 200)
        }
        try await withSandbox(mode, breaks: [.legacyTwoFactorOptional]) { s in
            let login = try await s.post(
                "/api/auth/login", ["email": "legacy@example.com", "password": "legacy-horse"], on: s.legacy)
            #expect(login["data"]?["token"]?.stringValue != nil)
        }
    }

    @Test("accepts-expired-token: an expired staff token opens /me", arguments: SandboxTestMode.allCases)
    func acceptsExpired(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, breaks: [.acceptsExpiredToken], clock: clock) { s in
            let token = try await s.staffSignIn().token
            clock.advance(by: SandboxAccounts.defaults.lifetimes.accessToken)
            #expect(try #require(expiry(of: token)) <= clock.now(), "the token must really have expired")
            #expect(try await s.get("/api/auth/me", bearer: token).status == 200)
        }
    }

    @Test("customer-logout-keeps-session: the customer token survives logout", arguments: SandboxTestMode.allCases)
    func customerLogoutKeepsSession(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.customerLogoutKeepsSession]) { s in
            let token = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            _ = try await s.post("/api/customer/auth/logout", headers: ["Authorization": "Bearer \(token)"])
            #expect(try await s.get("/api/customer/auth/me", bearer: token).status == 200)
        }
    }
}
