import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("Concurrent requests", .timeLimit(.minutes(5)))
struct ConcurrencyTests {
    @Test(
        "50 staff members sign in in parallel (login, 2FA request, code, verify); each gets a session of their own",
        arguments: SandboxTestMode.allCases)
    func parallelSignIns(mode: SandboxTestMode) async throws {
        let people = accounts { accounts in
            accounts.staff = (0..<50).map { index in
                SandboxAccounts.StaffUser(
                    email: "staff\(index)@example.com", password: "pw-\(index)",
                    companyID: SandboxAccounts.DefaultIDs.acme)
            }
        }
        try await withSandbox(mode, accounts: people) { s in
            let results = try await withThrowingTaskGroup(of: (String, String).self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let email = "staff\(index)@example.com"
                        let signedIn = try await s.staffSignIn(email: email, password: "pw-\(index)")
                        return (email, signedIn.token)
                    }
                }
                var all: [(String, String)] = []
                for try await result in group { all.append(result) }
                return all
            }
            #expect(results.count == 50)
            #expect(Set(results.map { claims(of: $0.1)["sessionId"]?.stringValue ?? "" }).count == 50)
            for (email, token) in results.prefix(10) {
                #expect(try await s.get("/api/auth/me", bearer: token)["user"]?["email"] == .string(email))
            }
        }
    }

    @Test("50 parallel logins of one account all answer requiresTwoFactor", arguments: SandboxTestMode.allCases)
    func parallelLoginsOneAccount(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let login = try await s.post(
                            "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
                        return login["requiresTwoFactor"] == true ? login.status : -1
                    }
                }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses == Array(repeating: 200, count: 50))
        }
    }

    @Test("racing refreshes of one token: exactly one rotation wins", arguments: SandboxTestMode.allCases)
    func racingRefresh(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
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
