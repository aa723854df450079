import Testing

@testable import FlowSpecSandbox

/// Multi-request journeys the tests repeat.
extension SandboxFixture {
    struct StaffTokens: Sendable {
        let token: String
        let refreshToken: String
        let answer: Answer
    }

    /// Password → 2FA request → code from the outbox → verify.
    func staffSignIn(
        email: String = "staff@example.com", password: String = "correct-horse",
        userAgent: String = SandboxFixture.mobileUA
    ) async throws -> StaffTokens {
        let ua = ["User-Agent": userAgent]
        let login = try await post(
            "/api/auth/login", ["email": .string(email), "password": .string(password)], headers: ua)
        try #require(login.status == 200, "login: \(login.status) \(login.text)")
        let userID = try #require(login["userId"]?.stringValue)
        let request = try await post(
            "/api/auth/2fa/request", ["userId": .string(userID), "email": .string(email)], headers: ua)
        try #require(request.status == 200, "2fa/request: \(request.status) \(request.text)")
        let code = try await latestCode(to: email)
        let verify = try await post(
            "/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(code)], headers: ua)
        try #require(verify.status == 200, "2fa/verify: \(verify.status) \(verify.text)")
        return StaffTokens(
            token: try #require(verify["token"]?.stringValue),
            refreshToken: try #require(verify["refreshToken"]?.stringValue), answer: verify)
    }

    func refresh(_ refreshToken: String, userAgent: String = SandboxFixture.mobileUA) async throws -> Answer {
        try await post("/api/auth/refresh", ["refreshToken": .string(refreshToken)], headers: ["User-Agent": userAgent])
    }

    /// Customer magic link: request a code, verify (optionally choosing a company).
    func customerVerify(email: String, companyID: String? = nil) async throws -> Answer {
        let request = try await post("/api/customer/auth/request-magic-link", ["email": .string(email)])
        try #require(request.status == 200)
        let code = try await latestCode(to: email)
        var body: [String: JSON] = ["email": .string(email), "code": .string(code)]
        if let companyID { body["companyId"] = .string(companyID) }
        return try await post("/api/customer/auth/verify-code", .object(body))
    }

    // MARK: Supabase

    var supabaseHeaders: [String: String] {
        ["apikey": vars["supabase_anon_key"]!, "X-Supabase-Api-Version": "2024-01-01"]
    }

    func supabase(
        _ method: String, _ path: String, _ json: JSON? = nil, headers: [String: String]? = nil,
        bearer: String? = nil
    ) async throws -> Answer {
        var headers = headers ?? supabaseHeaders
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        return try await send(method, base + "/auth/v1" + path, json: json, headers: headers)
    }

    /// Sign in with the default test phone and its fixed code. GoTrue verifies only a phone that was sent a code
    /// (its user exists), so this sends first; a send refused by the rate limit (429) is fine, as for an app.
    func supabaseSignIn() async throws -> Answer {
        let sent = try await supabase("POST", "/otp", ["phone": .string(vars["phone"]!)])
        try #require(sent.status == 200 || sent.status == 429, "otp: \(sent.status) \(sent.text)")
        let verify = try await supabase(
            "POST", "/verify",
            [
                "type": "sms", "phone": .string(vars["phone"]!),
                "token": .string(vars["phone_otp"]!),
            ])
        try #require(verify.status == 200, "verify: \(verify.status) \(verify.text)")
        return verify
    }
}
