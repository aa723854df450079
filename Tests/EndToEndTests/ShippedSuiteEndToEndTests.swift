import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct ShippedSuiteEndToEndTests {
    @Test func checkIsCleanOnTheShippedFlowsAndScenarios() async throws {
        let result = try await FlowSpecBinary.run(["check", "flows", "scenarios"])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.contains(" 0 errors, 0 warnings"))
    }

    @Test func runPassesEveryShippedScenarioAndPrintsTheSummaryLine() async throws {
        let result = try await FlowSpecBinary.run(["run", "scenarios"])
        #expect(result.status == 0, "\(result.all)")
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        // Skipped: exactly the two expiry scenarios, whose 15-minute tokens the default 60 s allowance cannot wait out.
        #expect(
            last.range(of: #"^\d+ passed, 0 failed, 2 skipped$"#, options: .regularExpression) != nil,
            "summary was: \(last)")
        #expect(!result.stdout.contains("FAIL"))
        let skips = result.stdout.split(separator: "\n").filter { $0.hasPrefix("SKIP") }
        #expect(skips.count == 2 && skips.allSatisfy { $0.contains("expired") }, "\(skips)")
    }

    @Test func aWrongExpectationMakesRunExit1AndExplainsItself() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = FlowSpecBinary.root.appendingPathComponent(
            "scenarios/repairminder/staff-login-password-and-valid-2fa-code.yaml")
        var text = try String(contentsOf: source, encoding: .utf8)
        #expect(text.contains("outcome: authenticated"))
        text = text.replacingOccurrences(of: "outcome: authenticated", with: "outcome: rejected")
        let file = dir.appendingPathComponent("wrong.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = try await FlowSpecBinary.run([
            "run", "--flows", FlowSpecBinary.root.appendingPathComponent("flows").path, file.path,
        ])
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.contains("FAIL"))
        #expect(result.stdout.contains("expected outcome `rejected`, got `authenticated`"))
        #expect(result.stdout.contains("path (repairminder.staff-password-2fa): login →"))
        #expect(result.stdout.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test func failureOutputNeverShowsSecrets() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = """
            scenario: a refresh whose answer the flow does not expect
            flow: repairminder.me
            inputs: {}
            store: { staff: { access_token: old-access-SECRET-1, refresh_token: refresh-SECRET-2 } }
            exchanges:
              - request: { method: GET, path: /api/auth/me }
                response: { status: 401, json: { error: "expired" } }
              - request: { method: POST, path: /api/auth/refresh }
                response: { status: 200, json: { token: new-access-SECRET-3, refreshToken: refresh-SECRET-4, expiresIn: 900 } }
              - request: { method: GET, path: /api/auth/me, headers: { Authorization: "Bearer wrong" } }
                response: { status: 200, json: { user: { id: u1 } } }
            expect:
              outcome: ok
            """
        let file = dir.appendingPathComponent("leak.yaml")
        try scenario.write(to: file, atomically: true, encoding: .utf8)
        let result = try await FlowSpecBinary.run([
            "run", "--flows", FlowSpecBinary.root.appendingPathComponent("flows").path, file.path,
        ])
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.contains("header Authorization: expected \"Bearer wrong\", got \"Bearer ••••\""))
        for secret in ["old-access-SECRET-1", "refresh-SECRET-2", "new-access-SECRET-3", "refresh-SECRET-4"] {
            #expect(!result.all.contains(secret), "output leaks \(secret)")
        }
    }

    @Test func usageErrorsExit2() async throws {
        #expect(try await FlowSpecBinary.run(["run"]).status == 2)
        #expect(try await FlowSpecBinary.run(["frobnicate"]).status == 2)
        #expect(try await FlowSpecBinary.run(["run", "no/such/folder"]).status == 2)
        #expect(try await FlowSpecBinary.run(["run", "scenarios", "--jobs", "0"]).status == 2)
        #expect(try await FlowSpecBinary.run(["--help"]).status == 0)
    }

    @Test func filterSelectsScenariosByName() async throws {
        let result = try await FlowSpecBinary.run(["run", "scenarios", "--filter", "phone number that is not E.164"])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.hasSuffix("1 passed, 0 failed\n"))
    }
}
