import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("Repair Minder staff login with mandatory email 2FA (docs/systems/repairminder.md)", .timeLimit(.minutes(5)))
struct StaffLoginTests {
    @Test("login answers requiresTwoFactor with a camelCase user and never tokens", arguments: SandboxTestMode.allCases)
    func loginShape(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let answer = try await s.post(
                "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
            #expect(answer.status == 200)
            let staff = SandboxAccounts.defaults.staff[0]
            #expect(
                answer.json == [
                    "requiresTwoFactor": true, "userId": .string(staff.id), "email": "staff@example.com",
                    "user": [
                        "id": .string(staff.id), "email": "staff@example.com", "firstName": "John", "lastName": "Doe",
                        "companyId": .string(staff.companyID),
                    ],
                ])
            #expect(answer["token"] == nil)
            #expect(answer["refreshToken"] == nil)
        }
    }

    @Test(
        "each refused account gets the exact documented 401 message",
        arguments: [
            ("staff@example.com", "wrong", "Invalid credentials"),
            ("nobody@example.com", "correct-horse", "Invalid credentials"),
            ("deactivated@example.com", "deactivated-horse", "Account is deactivated"),
            ("archived@example.com", "archived-horse", "Account has been archived and cannot login"),
            (
                "nopass@example.com", "anything",
                "No password set. Please use Magic Link login or set a password in Settings."
            ),
        ], SandboxTestMode.allCases)
    func refusals(_ refused: (email: String, password: String, message: String), mode: SandboxTestMode) async throws {
        let (email, password, message) = refused
        try await withSandbox(mode) { s in
            let answer = try await s.post("/api/auth/login", ["email": .string(email), "password": .string(password)])
            #expect(answer.status == 401)
            #expect(answer.json == ["error": .string(message)])
        }
    }

    @Test("missing fields are a 400", arguments: SandboxTestMode.allCases)
    func missingFields(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let answer = try await s.post("/api/auth/login", ["email": "staff@example.com"])
            #expect(answer.status == 400)
            #expect(answer.error != nil)
        }
    }

    @Test(
        "2FA request emails a 6-digit code; verify answers the snake_case user and the company",
        arguments: SandboxTestMode.allCases)
    func twoFactorHappyPath(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let signedIn = try await s.staffSignIn()
            let verify = signedIn.answer
            #expect(verify["expiresIn"] == 900)
            let user = try #require(verify["user"])
            for key in [
                "id", "email", "first_name", "last_name", "company_id", "role", "phi_access_level",
                "data_classification", "is_active", "magic_link_enabled", "company_status",
            ] {
                #expect(user[key] != nil, "user.\(key) missing")
            }
            #expect(user["is_active"] == 1)
            #expect(user["first_name"] == "John")
            #expect(user["company_status"] == "active")
            let company = try #require(verify["company"])
            #expect(company["name"] == "Acme Repairs")
            for key in [
                "id", "name", "status", "currency_code", "vat_number", "logo_url", "vat_rate_repair",
                "vat_rate_device_sale", "vat_rate_accessory", "vat_rate_device_purchase",
            ] {
                #expect(company[key] != nil, "company.\(key) missing")
            }
            let messages = try await s.get("/__sandbox/outbox?to=staff@example.com").json
            guard case .array(let list) = messages else { Issue.record("outbox is not a list"); return }
            #expect(list.count == 1)
            #expect(list.first?["channel"] == "email")
            let code = try #require(list.first?["code"]?.stringValue)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        }
    }

    @Test("the 2FA request answers the documented message", arguments: SandboxTestMode.allCases)
    func twoFactorRequestMessage(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let login = try await s.post(
                "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
            let answer = try await s.post(
                "/api/auth/2fa/request", ["userId": login["userId"]!, "email": "staff@example.com"])
            #expect(answer.json == ["message": "2FA code sent to your email"])
        }
    }

    @Test(
        "a 2FA code works once; a wrong code is refused and the right one still works after it",
        arguments: SandboxTestMode.allCases)
    func twoFactorSingleUse(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let login = try await s.post(
                "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
            let userID = login["userId"]!
            _ = try await s.post("/api/auth/2fa/request", ["userId": userID, "email": "staff@example.com"])
            let code = try await s.latestCode(to: "staff@example.com")
            let wrong = code == "000000" ? "111111" : "000000"
            let refused = try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(wrong)])
            #expect(refused.status == 401)
            #expect(refused.error == "Invalid verification code")
            let first = try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(code)])
            #expect(first.status == 200)
            let second = try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(code)])
            #expect(second.status == 401)
        }
    }

    @Test("a 2FA code expires after the configured lifetime", arguments: SandboxTestMode.allCases)
    func twoFactorExpiry(mode: SandboxTestMode) async throws {
        // Codes live 10 minutes; the 2FA window after the password step (15 minutes) stays open throughout.
        let clock = ManualSandboxClock()
        try await withSandbox(
            mode,
            accounts: accounts {
                $0.lifetimes.code = 600; $0.lifetimes.twoFactorWindow = 900
            },
            clock: clock
        ) { s in
            func passwordThenCode() async throws -> (userID: JSON, code: String) {
                let login = try await s.post(
                    "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
                let userID = try #require(login["userId"])
                _ = try await s.post("/api/auth/2fa/request", ["userId": userID, "email": "staff@example.com"])
                return (userID, try await s.latestCode(to: "staff@example.com"))
            }
            let early = try await passwordThenCode()
            clock.advance(by: 599)
            let inTime = try await s.post(
                "/api/auth/2fa/verify", ["userId": early.userID, "code": .string(early.code)])
            #expect(inTime.status == 200)

            let late = try await passwordThenCode()
            clock.advance(by: 600)
            let refused = try await s.post("/api/auth/2fa/verify", ["userId": late.userID, "code": .string(late.code)])
            #expect(refused.status == 401)
            #expect(refused.error == "Invalid verification code")
        }
    }

    @Test("a 2FA code cannot be requested or used without the password step", arguments: SandboxTestMode.allCases)
    func twoFactorNeedsPassword(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let userID = JSON.string(SandboxAccounts.defaults.staff[0].id)
            let request = try await s.post("/api/auth/2fa/request", ["userId": userID, "email": "staff@example.com"])
            #expect(request.status == 401)
            let outbox = try await s.get("/__sandbox/outbox/latest?to=staff@example.com")
            #expect(outbox.status == 404)
        }
    }

    @Test("five wrong codes burn the live code", arguments: SandboxTestMode.allCases)
    func bruteForceBurnsCode(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let login = try await s.post(
                "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
            let userID = login["userId"]!
            _ = try await s.post("/api/auth/2fa/request", ["userId": userID, "email": "staff@example.com"])
            let code = try await s.latestCode(to: "staff@example.com")
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<5 { _ = try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(wrong)]) }
            let right = try await s.post("/api/auth/2fa/verify", ["userId": userID, "code": .string(code)])
            #expect(right.status == 401)
        }
    }
}
