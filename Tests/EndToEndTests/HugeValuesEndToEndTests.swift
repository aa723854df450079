import Foundation
import Testing

/// Numbers no range allows are located errors, never a trap (a YAML number converted to Int before its range
/// check crashed `check` and `run`), and so are timeouts no clock can hold.
@Suite(.timeLimit(.minutes(5))) struct HugeValuesEndToEndTests {
    @Test(arguments: ["request_count: 99999999999999999999", "request_count: -1e300"])
    func aHugeNumberInAScenarioIsALocatedError(_ line: String) async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("huge.yaml")
        try Data(
            """
            scenario: huge
            flow: fixture.login
            inputs: { email: qa@example.com, password: pw, code: "123456" }
            exchanges:
              - request: { method: POST, path: /auth/login }
                response: { status: 401 }
            expect:
              outcome: rejected
              \(line)

            """.utf8
        ).write(to: file)
        let result = try await FlowSpecBinary.run(["check", "--flows", MalformedFixture.flows.path, file.path])
        #expect(result.status == 2, "\(result.all)")
        #expect(result.stdout.contains("huge.yaml:9:"), "\(result.all)")
        #expect(result.stdout.contains("`request_count`"), "\(result.all)")
    }

    @Test(arguments: [
        ["--request-timeout", "inf"], ["--request-timeout", "1e300"], ["--request-timeout", "-1"],
        ["--connect-timeout", "1e16"], ["--connect-timeout", "nan"],
    ])
    func aTimeoutNoClockCanHoldIsAUsageError(_ option: [String]) async throws {
        let result = try await FlowSpecBinary.run(
            ["run", "scenarios/traveling/login-invalid-credentials.yaml"] + option)
        #expect(result.status == 2, "\(option): \(result.all)")
        #expect(result.stderr.contains("must be a positive number of seconds, at most 86400"), "\(result.stderr)")
    }
}

/// A megabyte-long flow name (pasted by mistake, or a fuzzer's) is answered at once, and shown by its start.
@Suite(.timeLimit(.minutes(5))) struct LongNamesEndToEndTests {
    @Test func aMegabyteUnknownFlowNameInAScenario() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("long.yaml")
        try Data(
            "scenario: long\nflow: x.\(String(repeating: "a", count: 1 << 20))\nexchanges: []\nexpect: { outcome: ok }\n"
                .utf8
        ).write(to: file)
        // The time it takes is measured by SuggestionTests, away from the load of starting processes in parallel.
        let result = try await FlowSpecBinary.run(["check", "--flows", MalformedFixture.flows.path, file.path])
        #expect(result.status == 2, "\(result.all)")
        #expect(result.stdout.contains("long.yaml:2:7: error: unknown flow `x.aaaa"), "\(result.stdout.prefix(500))")
        #expect(result.all.utf8.count < 4000, "the name is abbreviated")
    }

    @Test func aLongUnknownFlowNameForExec() async throws {
        let result = try await FlowSpecBinary.run(["exec", "x." + String(repeating: "a", count: 100_000)])
        #expect(result.status == 2, "\(result.all.prefix(500))")
        #expect(result.stderr.contains("characters)"), "\(result.stderr.prefix(500))")
        #expect(result.all.utf8.count < 4000)
    }
}
