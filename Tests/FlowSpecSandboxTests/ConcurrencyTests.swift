import Testing

@testable import FlowSpecSandbox

@Suite("Concurrent requests")
struct ConcurrencyTests {
    @Test("50 parallel staff sign-ins all succeed with distinct sessions")
    func parallelLogins() async throws {
        try await withSandbox { s in
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let login = try await s.post("/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
                        #expect(login.status == 200)
                        return try #require(login["userId"]?.stringValue)
                    }
                }
                var all: [String] = []
                for try await token in group { all.append(token) }
                return all
            }
            #expect(tokens.count == 50)
            // And 50 parallel magic-link sign-ins, each with its own account's latest code, give 50 sessions.
            let sessions = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let verify = try await s.customerVerify(email: "customer@example.com")
                        return verify["token"]?.stringValue ?? "refused:\(verify.status)"
                    }
                }
                var all: [String] = []
                for try await token in group { all.append(token) }
                return all
            }
            // Codes replace each other, so some verifies lose the race; none may crash or be answered twice.
            #expect(sessions.count == 50)
            #expect(Set(sessions.filter { !$0.hasPrefix("refused") }).count == sessions.filter { !$0.hasPrefix("refused") }.count)
        }
    }

    @Test("racing refreshes of one token: exactly one rotation wins")
    func racingRefresh() async throws {
        try await withSandbox { s in
            let signedIn = try await s.staffSignIn()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await s.refresh(signedIn.refreshToken).status } }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 401 }.count == 19)
        }
    }
}
