import SandboxTesting
import Testing

@testable import FlowSpecSandbox

/// The breaks `flowspec probe` catches and the live suite does not: forged JWTs, role confusion, racing refreshes.
/// Each test shows the break has its effect and that the healthy sandbox refuses the same request.
extension BreakTests {
    @Test(
        "accepts-unsigned-token: an alg-none token opens staff and customer endpoints; a bad signature still does not",
        arguments: SandboxTestMode.allCases)
    func acceptsUnsigned(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.acceptsUnsignedToken]) { s in
            let token = try await s.staffSignIn().token
            #expect(try await s.get("/api/auth/me", bearer: unsigned(token)).status == 200)
            #expect(try await s.get("/api/auth/me", bearer: tampered(token)).status == 401)
            let customer = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            #expect(try await s.get("/api/customer/auth/me", bearer: unsigned(customer)).status == 200)
            #expect(try await s.get("/api/customer/auth/me", bearer: tampered(customer)).status == 401)
        }
        try await withSandbox(mode) { s in
            let token = try await s.staffSignIn().token
            #expect(try await s.get("/api/auth/me", bearer: unsigned(token)).status == 401)
        }
    }

    @Test(
        "accepts-altered-claims: changed claims under the original signature open /me; a corrupted signature does not",
        arguments: SandboxTestMode.allCases)
    func acceptsAlteredClaims(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.acceptsAlteredClaims]) { s in
            let token = try await s.staffSignIn().token
            let altered = try alteredClaims(token)
            let me = try await s.get("/api/auth/me", bearer: altered)
            #expect(me.status == 200)
            // Unlike accepts-tampered-token, a signature the server never issued is still checked.
            #expect(try await s.get("/api/auth/me", bearer: tampered(token)).status == 401)
            let customer = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            #expect(try await s.get("/api/customer/auth/me", bearer: try alteredClaims(customer)).status == 200)
        }
        try await withSandbox(mode) { s in
            let token = try await s.staffSignIn().token
            #expect(try await s.get("/api/auth/me", bearer: try alteredClaims(token)).status == 401)
        }
    }

    @Test("role-confusion: a customer token opens the staff endpoints", arguments: SandboxTestMode.allCases)
    func roleConfusion(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.roleConfusion]) { s in
            let customer = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            let me = try await s.get("/api/auth/me", bearer: customer)
            #expect(me.status == 200)
            #expect(me["user"]?["email"] == "customer@example.com")
            #expect(try await s.get("/api/users/me", bearer: customer).status == 200)
            // Staff tokens keep working, and garbage is still refused.
            #expect(try await s.get("/api/auth/me", bearer: try await s.staffSignIn().token).status == 200)
            #expect(try await s.get("/api/auth/me", bearer: tampered(customer)).status == 401)
        }
        try await withSandbox(mode) { s in
            let customer = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            #expect(try await s.get("/api/auth/me", bearer: customer).status == 401)
        }
    }

    @Test("customer-role-confusion: a staff token opens the customer endpoints", arguments: SandboxTestMode.allCases)
    func customerRoleConfusion(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.customerRoleConfusion]) { s in
            let staff = try await s.staffSignIn().token
            let me = try await s.get("/api/customer/auth/me", bearer: staff)
            #expect(me.status == 200)
            #expect(me["client"]?["email"] == "staff@example.com")
            // Customer tokens keep working, and a forged staff token is still refused.
            let customer = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            #expect(try await s.get("/api/customer/auth/me", bearer: customer).status == 200)
            #expect(try await s.get("/api/customer/auth/me", bearer: tampered(staff)).status == 401)
            // The staff side is not confused by this break.
            #expect(try await s.get("/api/auth/me", bearer: customer).status == 401)
        }
        try await withSandbox(mode) { s in
            let staff = try await s.staffSignIn().token
            #expect(try await s.get("/api/customer/auth/me", bearer: staff).status == 401)
        }
    }

    @Test(
        "non-atomic-rotation: concurrent refreshes with one token each get a new token; sequential reuse is still detected",
        arguments: SandboxTestMode.allCases)
    func nonAtomicRotation(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.nonAtomicRotation]) { s in
            let signedIn = try await s.staffSignIn()
            let answers = try await burst(8) { try await s.refresh(signedIn.refreshToken) }
            let issued = Set(answers.filter { $0.status == 200 }.compactMap { $0["refreshToken"]?.stringValue })
            #expect(issued.count >= 2, "\(answers.map(\.status))")
            // Presented after the answers came back, the rotated-out token meets reuse detection as ever.
            #expect(try await s.refresh(signedIn.refreshToken).error == RepairMinderMessages.tokenReuse)
            let again = try await s.staffSignIn()
            _ = try #require(try await s.refresh(again.refreshToken)["refreshToken"]?.stringValue)
            #expect(try await s.refresh(again.refreshToken).error == RepairMinderMessages.tokenReuse)
        }
        try await withSandbox(mode) { s in
            let signedIn = try await s.staffSignIn()
            let answers = try await burst(8) { try await s.refresh(signedIn.refreshToken) }
            #expect(answers.filter { $0.status == 200 }.count == 1, "\(answers.map(\.status))")
        }
    }

    @Test(
        "supabase-non-atomic-rotation: concurrent refreshes of one token get different new tokens",
        arguments: SandboxTestMode.allCases)
    func supabaseNonAtomicRotation(mode: SandboxTestMode) async throws {
        for broken in [true, false] {
            try await withSandbox(mode, breaks: broken ? [.supabaseNonAtomicRotation] : []) { s in
                let token = try #require(try await s.supabaseSignIn()["refresh_token"])
                let answers = try await burst(8) {
                    try await s.supabase("POST", "/token?grant_type=refresh_token", ["refresh_token": token])
                }
                let issued = Set(answers.filter { $0.status == 200 }.compactMap { $0["refresh_token"]?.stringValue })
                if broken {
                    #expect(issued.count >= 2, "\(answers.map(\.status))")
                } else {
                    // Healthy GoTrue: the first refresh rotates, the others present the parent of the active token.
                    #expect(issued.count == 1, "\(answers.map(\.status))")
                    #expect(answers.allSatisfy { $0.status == 200 || $0.status == 409 }, "\(answers.map(\.status))")
                }
            }
        }
    }
}

/// `count` copies of `request` at once.
private func burst(_ count: Int, _ request: @escaping @Sendable () async throws -> Answer) async throws -> [Answer] {
    try await withThrowingTaskGroup(of: Answer.self) { group in
        for _ in 0..<count { group.addTask { try await request() } }
        var answers: [Answer] = []
        for try await answer in group { answers.append(answer) }
        return answers
    }
}

/// The same claims under `alg: none` with an empty signature (RFC 7519 section 6, an Unsecured JWT).
private func unsigned(_ token: String) -> String {
    let payload = token.split(separator: ".", omittingEmptySubsequences: false)[1]
    return Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + ".\(payload)."
}

/// The claims with `exp` a year later, under the original header and signature.
private func alteredClaims(_ token: String) throws -> String {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    let exp = try #require(claims(of: token)["exp"]?.intValue)
    let changed = claims(of: token).merging(["exp": .int(exp + 365 * 86_400)])
    return parts[0] + "." + Base64URL.encode(Array(changed.serialized.utf8)) + "." + parts[2]
}
