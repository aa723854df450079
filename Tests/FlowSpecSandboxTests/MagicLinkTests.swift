import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("Staff and customer magic links (Repair Minder API, docs/systems/repairminder.md)", .timeLimit(.minutes(5)))
struct MagicLinkTests {
    @Test(
        "staff magic link: always 'Magic link sent'; the emailed code signs in once",
        arguments: SandboxTestMode.allCases)
    func staffMagicLink(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let email = s.vars["magic_staff_email"]!
            let request = try await s.post("/api/auth/magic-link/request", ["email": .string(email)])
            #expect(request.status == 200)
            #expect(request.json == ["message": "Magic link sent"])
            let unknown = try await s.post("/api/auth/magic-link/request", ["email": "nobody@example.com"])
            #expect(unknown.status == 200)
            #expect(unknown.json == request.json)
            #expect(try await s.get("/__sandbox/outbox/latest?to=nobody@example.com").status == 404)

            let code = try await s.latestCode(to: email)
            let verify = try await s.post(
                "/api/auth/magic-link/verify-code", ["email": .string(email), "code": .string(code)])
            #expect(verify.status == 200)
            #expect(verify["token"]?.stringValue != nil)
            #expect(verify["refreshToken"]?.stringValue != nil)
            #expect(verify["user"]?["email"] == .string(email))
            let again = try await s.post(
                "/api/auth/magic-link/verify-code", ["email": .string(email), "code": .string(code)])
            #expect(again.status == 401)
            #expect(again.error == "Invalid or expired code")
        }
    }

    @Test("an account without a password can use the magic link", arguments: SandboxTestMode.allCases)
    func noPasswordAccount(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let email = s.vars["nopassword_email"]!
            _ = try await s.post("/api/auth/magic-link/request", ["email": .string(email)])
            let code = try await s.latestCode(to: email)
            let verify = try await s.post(
                "/api/auth/magic-link/verify-code", ["email": .string(email), "code": .string(code)])
            #expect(verify.status == 200)
            let me = try await s.get("/api/auth/me", bearer: verify["token"]?.stringValue)
            #expect(me["hasPassword"] == false)
        }
    }

    @Test(
        "customer request answers the same message and status for known and unknown emails",
        arguments: SandboxTestMode.allCases)
    func customerEnumerationSafe(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let known = try await s.post("/api/customer/auth/request-magic-link", ["email": "customer@example.com"])
            let unknown = try await s.post("/api/customer/auth/request-magic-link", ["email": "nobody@example.com"])
            #expect(known.status == 200)
            #expect(known.json == ["message": "If an account exists, a login code has been sent"])
            #expect(unknown.status == known.status)
            #expect(unknown.json == known.json)
        }
    }

    @Test(
        "a single-company customer gets token, client and company; the JWT has the documented claims",
        arguments: SandboxTestMode.allCases)
    func singleCompany(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let verify = try await s.customerVerify(email: "customer@example.com")
            #expect(verify.status == 200)
            let customer = SandboxAccounts.defaults.customers[0]
            let companyID = customer.companyIDs[0]
            #expect(
                verify["client"] == [
                    "id": .string(customer.clientID(in: companyID)), "firstName": "Jane", "lastName": "Customer",
                    "email": "customer@example.com", "name": "Jane Customer",
                ])
            #expect(verify["company"]?["id"] == .string(companyID))
            #expect(verify["company"]?["logoUrl"] != nil)
            let token = try #require(verify["token"]?.stringValue)
            let c = claims(of: token)
            #expect(c["type"] == "customer")
            #expect(c["scope"] == "customer_portal")
            #expect(c["companyId"] == .string(companyID))
            #expect(c["clientId"] == .string(customer.clientID(in: companyID)))
            #expect(c["email"] == "customer@example.com")
            #expect(c["sessionId"]?.stringValue != nil)
            #expect(c["issuedAt"]?.intValue != nil && c["exp"]?.intValue != nil && c["iat"]?.intValue != nil)
        }
    }

    @Test(
        "a multi-company customer must choose; the code stays valid and the chosen companyId is honoured",
        arguments: SandboxTestMode.allCases)
    func companySelection(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let email = s.vars["multi_customer_email"]!
            let chosen = s.vars["multi_customer_company_id"]!
            let first = try await s.customerVerify(email: email)
            #expect(first.status == 200)
            #expect(first["requiresCompanySelection"] == true)
            #expect(first["token"] == nil)
            #expect(first["email"] == .string(email))
            let code = try #require(first["code"]?.stringValue)
            guard case .array(let companies)? = first["companies"] else { Issue.record("no companies"); return }
            #expect(companies.count == 2)
            #expect(companies.allSatisfy { $0["id"] != nil && $0["name"] != nil && $0["logoUrl"] != nil })
            #expect(companies.first?["id"] != .string(chosen))

            let second = try await s.post(
                "/api/customer/auth/verify-code",
                ["email": .string(email), "code": .string(code), "companyId": .string(chosen)])
            #expect(second.status == 200)
            #expect(second["company"]?["id"] == .string(chosen))
            #expect(claims(of: second["token"]?.stringValue ?? "")["companyId"] == .string(chosen))
            // Used now.
            let replay = try await s.post(
                "/api/customer/auth/verify-code",
                ["email": .string(email), "code": .string(code), "companyId": .string(chosen)])
            #expect(replay.status == 400)
        }
    }

    @Test("a companyId the customer does not belong to is refused", arguments: SandboxTestMode.allCases)
    func foreignCompany(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let answer = try await s.customerVerify(
                email: "customer@example.com", companyID: SandboxAccounts.DefaultIDs.beta)
            #expect(answer.status == 400)
            #expect(answer.error == "Invalid company selection")
        }
    }

    @Test("a wrong or unknown customer code is a 400 'Invalid or expired code'", arguments: SandboxTestMode.allCases)
    func invalidCustomerCode(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            _ = try await s.post("/api/customer/auth/request-magic-link", ["email": "customer@example.com"])
            let code = try await s.latestCode(to: "customer@example.com")
            let wrong = code == "000000" ? "111111" : "000000"
            let answer = try await s.post(
                "/api/customer/auth/verify-code", ["email": "customer@example.com", "code": .string(wrong)])
            #expect(answer.status == 400)
            #expect(answer.json == ["error": "Invalid or expired code"])
            let nobody = try await s.post(
                "/api/customer/auth/verify-code", ["email": "nobody@example.com", "code": "123456"])
            #expect(nobody.status == 400)
            #expect(nobody.json == answer.json)
        }
    }

    @Test("customer logout revokes that customer session only", arguments: SandboxTestMode.allCases)
    func customerLogout(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let one = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            let two = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            #expect(try await s.get("/api/customer/auth/me", bearer: one).status == 200)
            let logout = try await s.post("/api/customer/auth/logout", headers: ["Authorization": "Bearer \(one)"])
            #expect(logout.status == 200)
            #expect(logout.json == ["success": true])
            #expect(try await s.get("/api/customer/auth/me", bearer: one).status == 401)
            #expect(try await s.get("/api/customer/auth/me", bearer: two).status == 200)
            let again = try await s.post("/api/customer/auth/logout", headers: ["Authorization": "Bearer \(one)"])
            #expect(again.status == 401)
        }
    }

    @Test("a customer token does not open staff endpoints", arguments: SandboxTestMode.allCases)
    func customerTokenIsNotStaff(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let token = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            let me = try await s.get("/api/auth/me", bearer: token)
            #expect(me.status == 401)
        }
    }
}
