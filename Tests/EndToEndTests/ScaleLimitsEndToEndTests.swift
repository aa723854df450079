import Foundation
import Testing

/// Nothing large hangs or kills the built binary, and `--timeout` bounds scenarios that never wait: each case once
/// hung, aborted or overflowed the stack (docs/reliability.md, Limits).
@Suite(.timeLimit(.minutes(5))) struct ScaleLimitsEndToEndTests {
    // MARK: --repeat

    @Test func aRepeatBeyondTheLimitIsAUsageError() async throws {
        let started = ContinuousClock.now
        let result = try await FlowSpecBinary.run(["run", "scenarios", "--repeat", "1000000000"])
        #expect(result.status == 2, "\(result.all.prefix(500))")
        #expect(result.stderr.contains("--repeat is at most 100,000"), "\(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(60), "refused before anything was planned")
    }

    /// Within the option's range, but too many runs once multiplied by the selected scenarios; refused before any run
    /// is planned, listed or played.
    @Test func aRepeatTimesTheSelectedScenariosBeyondTheLimitIsAUsageError() async throws {
        let result = try await FlowSpecBinary.run(["run", "scenarios/traveling", "--repeat", "100000", "--list"])
        #expect(result.status == 2, "\(result.all.prefix(500))")
        #expect(result.stderr.contains("selected scenarios makes"), "\(result.stderr)")
        #expect(
            result.stderr.contains("flowspec plays at most 100,000 at once: lower --repeat, or select fewer scenarios"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing listed")
    }

    // MARK: --timeout

    /// Two scenarios that only compute (a flow looping through two million steps, no request, no wait) with two
    /// jobs take every thread a two-core machine gives the timers: they still end at the limit, reported timed out.
    @Test func busyScenariosEndAtTheTimeout() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let flows = dir.appendingPathComponent("flows/test")
        try FileManager.default.createDirectory(at: flows, withIntermediateDirectories: true)
        try Data(
            """
            flow: test.spin
            variables: { n: 0 }
            max_steps: 100000
            start: spin
            states:
              spin:
                choice:
                  - when: n < 20000
                    set: { n: n + 1 }
                    goto: spin
                  - else: true
                    goto: done
              done: { end: done, success: true }

            """.utf8
        ).write(to: flows.appendingPathComponent("spin.yaml"))
        try Data(
            """
            flow: test.busy
            variables: { rounds: 0 }
            max_steps: 100000
            start: round
            states:
              round:
                call: test.spin
                on:
                  - when: rounds < 100
                    set: { rounds: rounds + 1 }
                    goto: round
                  - else: true
                    goto: done
              done: { end: done, success: true }

            """.utf8
        ).write(to: flows.appendingPathComponent("busy.yaml"))
        for name in ["one", "two"] {
            try Data("scenario: busy \(name)\nflow: test.busy\nexchanges: []\nexpect: { outcome: done }\n".utf8)
                .write(to: dir.appendingPathComponent("busy-\(name).yaml"))
        }
        let started = ContinuousClock.now
        let result = try await FlowSpecBinary.run(
            ["run", "--flows", "flows", "busy-one.yaml", "busy-two.yaml", "--timeout", "1", "--jobs", "2"],
            in: dir)
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.components(separatedBy: "timed out after 1 s (--timeout)").count == 3, "\(result.stdout)")
        #expect(result.stdout.hasSuffix("0 passed, 2 failed\n"), "\(result.stdout)")
        // Loose: under the whole suite on two cores this took 45 s; without the deadline one scenario ran on and passed.
        #expect(elapsed < .seconds(100), "the run took \(elapsed): the busy scenarios held it past --timeout 1")
    }

    // MARK: merge

    @Test func mergingAJUnitFileNestedTooDeeplyIsRefusedNamingTheFile() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("deep.xml")
        try Data(
            ("<testsuites><testsuite name=\"s\">" + String(repeating: "<x>", count: 200_000)
                + String(repeating: "</x>", count: 200_000)
                + "</testsuite></testsuites>\n").utf8
        ).write(to: file)
        let result = try await FlowSpecBinary.run([
            "merge", "-o", dir.appendingPathComponent("out.xml").path, file.path,
        ])
        #expect(result.status == 2, "\(result.all.prefix(500))")
        #expect(
            result.stderr.contains("deep.xml: elements nested deeper than 256 levels"), "\(result.stderr.prefix(500))")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.xml").path), "nothing written")
    }
}
