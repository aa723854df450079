import Foundation
import Testing

/// `flowspec run --fail-fast` and `--timeout S` on the real binary: what is skipped and how it is reported, a live
/// scenario stuck on an input command stopped at its limit, and values that are not a limit refused.
@Suite(.timeLimit(.minutes(5))) struct ExecutionEndToEndTests {
    static let failFastReason = "not run: --fail-fast stopped the run at the first failure"

    /// A scripted login the backend refuses: it passes expecting `rejected`, and fails expecting anything else.
    func refusedLogin(name: String, expecting outcome: String) -> String {
        """
        scenario: \(name)
        flow: repairminder.staff-password-2fa
        inputs:
          email: staff@example.com
          password: wrong-password
        exchanges:
          - request:
              method: POST
              path: /api/auth/login
              json: { email: staff@example.com, password: wrong-password }
            response:
              status: 401
              json: { error: "Invalid credentials" }
        expect:
          outcome: \(outcome)
          request_count: 1
        """
    }

    /// Files sort by name, so with `--jobs 1` they run a, b, c, d: b is the first failure.
    var fourScenarios: [String: String] {
        [
            "a.yaml": refusedLogin(name: "a is refused", expecting: "rejected"),
            "b.yaml": refusedLogin(name: "b expects a login", expecting: "authenticated"),
            "c.yaml": refusedLogin(name: "c is refused", expecting: "rejected"),
            "d.yaml": refusedLogin(name: "d is refused", expecting: "rejected"),
        ]
    }

    /// Runs `scenarios` (file name → YAML) from a fresh folder; `$DIR` in an argument is that folder's parent,
    /// where reports can go without being loaded as scenarios. Returns the output and the files left in `$DIR`.
    func run(_ scenarios: [String: String], _ arguments: [String]) async throws -> (
        output: FlowSpecBinary.Output, dir: URL
    ) {
        let dir = try FlowSpecBinary.temporaryDirectory()
        let scenarioDir = dir.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarioDir, withIntermediateDirectories: true)
        for (file, text) in scenarios {
            try text.write(to: scenarioDir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let flows = FlowSpecBinary.root.appendingPathComponent("flows").path
        let output = try await FlowSpecBinary.run(
            ["run", "--flows", flows, scenarioDir.path]
                + arguments.map { $0.replacingOccurrences(of: "$DIR", with: dir.path) })
        return (output, dir)
    }

    // MARK: --fail-fast

    @Test func failFastSkipsWhatComesAfterTheFirstFailureAndSaysSo() async throws {
        let (result, dir) = try await run(
            fourScenarios, ["--fail-fast", "--jobs", "1", "--report", "junit=$DIR/junit.xml"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 1, "\(result.all)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "1 passed, 1 failed, 2 skipped", "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("PASS  a is refused") })
        #expect(lines.contains { $0.hasPrefix("FAIL  b expects a login") })
        for name in ["c is refused", "d is refused"] {
            let skip = try #require(
                lines.firstIndex { $0.hasPrefix("SKIP  \(name)") }, "\(name) not reported skipped: \(result.stdout)")
            #expect(lines[skip + 1].trimmingCharacters(in: .whitespaces) == Self.failFastReason)
        }

        let junit = try String(contentsOf: dir.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains(#"tests="4" failures="1" errors="0" skipped="2""#), "\(junit)")
        for name in ["c is refused", "d is refused"] {
            let testcase = try #require(
                junit.range(of: #"<testcase name="\#(name)""#), "\(name) missing from the JUnit report")
            let rest = junit[testcase.upperBound...]
            let end = try #require(rest.range(of: "</testcase>"))
            #expect(rest[..<end.lowerBound].contains(#"<skipped message="\#(Self.failFastReason)"/>"#), "\(junit)")
        }
    }

    @Test func withoutFailFastEveryScenarioRuns() async throws {
        let (result, dir) = try await run(fourScenarios, ["--jobs", "1"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.hasSuffix("3 passed, 1 failed\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("SKIP"))
    }

    // MARK: --timeout

    /// `staff password login` reads the emailed code with `email_code_command`; made to hang, the scenario must be
    /// stopped at 1 s rather than wait for the command's own 30 s limit.
    @Test func aLiveScenarioStuckOnAnInputCommandIsStoppedAtTheTimeout() async throws {
        try await SandboxProcess.with { sandbox in
            #expect(sandbox.vars["repairminder_url"] != nil, "the sandbox did not start")
            let marker = "120.\(Int.random(in: 100_000...999_999))"
            let started = ContinuousClock.now
            let result = try await FlowSpecBinary.run([
                "run", "scenarios/live/repairminder-staff-password-login.yaml", "--no-sandbox",
                "--vars-file", sandbox.varsFile.path, "--var", "email_code_command=sleep \(marker)", "--timeout", "1",
            ])
            let elapsed = ContinuousClock.now - started
            #expect(result.status == 1, "\(result.all)")
            #expect(result.stdout.contains("timed out after 1 s (--timeout)"), "\(result.stdout)")
            #expect(result.stdout.hasSuffix("0 passed, 1 failed\n"), "\(result.stdout)")
            // The message above proves the 1 s timeout stopped it (the command's own 30 s limit says something else); this
            // bound only catches a run that sat out the 120 s sleep, with room for a loaded 2-core machine.
            #expect(elapsed < .seconds(60), "the run took \(elapsed): the stuck command held it")

            // The command is killed with its scenario, not left running after flowspec has exited.
            let leftovers = try #require(Self.processes(matching: "sleep \(marker)"), "cannot list processes here")
            #expect(leftovers.isEmpty, "still running after the run ended: \(leftovers)")
            for pid in leftovers { kill(pid, SIGKILL) }
        }
    }

    /// Live scenarios wait their turn for the backend; under `--fail-fast` one still waiting when another fails
    /// has not started, and must not run — even with several jobs.
    @Test func failFastSkipsLiveScenariosStillWaitingForTheBackend() async throws {
        try await SandboxProcess.with { sandbox in
            #expect(sandbox.vars["repairminder_url"] != nil, "the sandbox did not start")
            let marker = "120.\(Int.random(in: 100_000...999_999))"
            let started = ContinuousClock.now
            let result = try await FlowSpecBinary.run([
                "run", "scenarios/live/repairminder-staff-me-shape.yaml",
                "scenarios/live/repairminder-staff-password-login.yaml",
                "--no-sandbox", "--vars-file", sandbox.varsFile.path, "--var", "email_code_command=sleep \(marker)",
                "--timeout", "1", "--fail-fast", "--jobs", "4",
            ])
            #expect(result.status == 1, "\(result.all)")
            #expect(result.stdout.hasSuffix("0 passed, 1 failed, 1 skipped\n"), "\(result.stdout)")
            #expect(
                result.stdout.components(separatedBy: "timed out after 1 s (--timeout)").count == 2, "\(result.stdout)")
            #expect(result.stdout.contains(Self.failFastReason))
            #expect(ContinuousClock.now - started < .seconds(60))
            for pid in Self.processes(matching: "sleep \(marker)") ?? [] { kill(pid, SIGKILL) }
        }
    }

    // MARK: values that are not a limit

    @Test(arguments: ["0", "-1", "inf", "nan"])
    func aTimeoutThatIsNotAPositiveNumberOfSecondsIsAUsageError(_ value: String) async throws {
        let result = try await FlowSpecBinary.run(["run", "scenarios", "--timeout", value])
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.stderr.contains(
                "--timeout must be a positive number of seconds, such as 60 or 0.5; leave it out for no limit"),
            "\(result.stderr)")
        #expect(!result.stdout.contains("passed"), "nothing ran")
    }

    @Test func aTimeoutThatIsNotANumberIsAUsageError() async throws {
        let result = try await FlowSpecBinary.run(["run", "scenarios", "--timeout", "abc"])
        #expect(result.status == 2, "\(result.all)")
        #expect(result.stderr.contains("The value 'abc' is invalid for '--timeout <timeout>'"), "\(result.stderr)")
        #expect(
            result.stderr.contains("Seconds one scenario may take"),
            "the help line says what it wants: \(result.stderr)")
    }

    /// Processes whose command line contains `text` (unique to one test), read from /proc; nil without /proc.
    static func processes(matching text: String) -> [pid_t]? {
        let proc = URL(fileURLWithPath: "/proc")
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: proc.path) else { return nil }
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let raw = try? Data(contentsOf: proc.appendingPathComponent(entry).appendingPathComponent("cmdline"))
            else { return nil }
            // Arguments are separated by NUL bytes.
            let commandLine = String(decoding: raw.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return commandLine.contains(text) ? pid : nil
        }
    }
}
