import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("Quarantine mode (Repair Minder API, docs/systems/repairminder.md)", .timeLimit(.minutes(5)))
struct QuarantineTests {
    static let allowed = [
        "/api/auth/me", "/api/users/me", "/api/users/me/avatar", "/api/subscription/features",
        "/api/company-locations",
    ]

    @Test(
        "a pending_approval company's staff reach the allow-list but get 403 ACCOUNT_PENDING_APPROVAL elsewhere",
        arguments: SandboxTestMode.allCases)
    func pendingApproval(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let token = try await s.staffSignIn(
                email: s.vars["quarantined_email"]!, password: s.vars["quarantined_password"]!
            ).token
            for path in Self.allowed + ["/api/companies/\(SandboxAccounts.DefaultIDs.pending)"] {
                let answer = try await s.get(path, bearer: token)
                #expect(answer.status == 200, "\(path) answered \(answer.status)")
            }
            let orders = try await s.get("/api/orders", bearer: token)
            #expect(orders.status == 403)
            #expect(
                orders.json == ["error": "Your account is pending approval...", "code": "ACCOUNT_PENDING_APPROVAL"])
            // Guarded before routing: an unknown path is refused the same way rather than revealed.
            #expect(try await s.get("/api/invoices", bearer: token).status == 403)
            let me = try await s.get("/api/auth/me", bearer: token)
            #expect(me["user"]?["company_status"] == "pending_approval")
            // Logout and refresh stay open.
            let signedIn = try await s.staffSignIn(
                email: s.vars["quarantined_email"]!, password: s.vars["quarantined_password"]!)
            #expect(try await s.refresh(signedIn.refreshToken).status == 200)
        }
    }

    @Test("a suspended company is quarantined too", arguments: SandboxTestMode.allCases)
    func suspended(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let token = try await s.staffSignIn(email: "suspended@example.com", password: "suspended-horse").token
            #expect(try await s.get("/api/orders", bearer: token).status == 403)
            #expect(try await s.get("/api/auth/me", bearer: token).status == 200)
        }
    }

    @Test(
        "an active company's staff list orders; another company's record is refused",
        arguments: SandboxTestMode.allCases)
    func activeCompany(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let token = try await s.staffSignIn().token
            let orders = try await s.get("/api/orders", bearer: token)
            #expect(orders.status == 200)
            guard case .array(let list)? = orders["orders"] else { Issue.record("no orders list"); return }
            #expect(!list.isEmpty)
            #expect(
                try await s.get("/api/companies/\(SandboxAccounts.DefaultIDs.acme)", bearer: token)["company"]?["id"]
                    == .string(SandboxAccounts.DefaultIDs.acme))
            #expect(try await s.get("/api/companies/\(SandboxAccounts.DefaultIDs.beta)", bearer: token).status == 403)
            #expect(try await s.get("/api/orders").status == 401)
        }
    }
}
