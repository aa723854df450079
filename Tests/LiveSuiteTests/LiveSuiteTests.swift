import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecSandbox
import FlowSpecScenarios
import Foundation
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The live suite (`scenarios/live/`) against the real sandbox over real HTTP — and against the sandbox with
/// documented promises broken one at a time, where it must fail. A suite that passes against a broken
/// backend has no teeth.
@Suite(.serialized, .timeLimit(.minutes(5))) struct LiveSuiteTests {
    static let suite: Suite = SuiteLoader.load(
        paths: [repositoryRoot.appendingPathComponent("scenarios/live").path],
        flowsFolder: repositoryRoot.appendingPathComponent("flows").path)

    static var liveScenarios: [Scenario] { suite.scenarios.filter(\.live) }

    /// Expiry can only be observed by waiting a token out: these breaks run against 2-second tokens.
    static let needShortLifetimes: Set<SandboxBreak> = [.acceptsExpiredToken, .travelingAcceptsExpiredToken]
    static let shortLifetimes = repositoryRoot.appendingPathComponent("scenarios/live/sandbox-short-lifetimes.json")
        .path

    /// The sandbox and the scenarios share one clock that moves only when a scenario waits, so a slow machine
    /// cannot let a 2-second token expire between two steps, and waiting a token out takes no time.
    func run(
        breaks: Set<SandboxBreak> = [], dropping: Set<String> = [], setting: [String: String] = [:],
        shortLifetimes: Bool = false,
        allowWait: Double = ScenarioRunner.defaultAllowWait,
        scenarios: [Scenario] = LiveSuiteTests.liveScenarios
    ) async throws -> [ScenarioReport] {
        let clock = ManualSandboxClock()
        var sandboxOptions = SandboxOptions(breaks: breaks, clock: clock)
        if shortLifetimes { sandboxOptions.accounts = try SandboxAccounts.load(path: Self.shortLifetimes) }
        let sandbox = try await Sandbox.start(sandboxOptions)
        var vars: [String: JSONValue] = [:]
        for (name, value) in sandbox.liveVars() where !dropping.contains(name) { vars[name] = .string(value) }
        for (name, value) in setting { vars[name] = .string(value) }
        var options = LiveHTTPOptions()
        options.requestTimeout = 10
        let adapter = LiveHTTPAdapter(options: options)
        var runner = ScenarioRunner(specs: Self.suite.specs, jobs: 2, vars: vars, live: adapter)
        runner.liveClock = clock
        runner.allowWait = allowWait
        let reports = await runner.run(scenarios)
        await adapter.shutdown()
        await sandbox.stop()
        return reports
    }

    @Test func theLiveSuiteLoadsCleanAndIsSubstantial() {
        #expect(Self.suite.diagnostics.items.filter { $0.severity == .error }.map(\.description) == [])
        #expect(Self.liveScenarios.count >= 20)
    }

    /// The scenarios that wait a token out: with 15-minute tokens and the default 60 s allowance they cannot
    /// check anything, so they are skipped — never passed.
    static let expiryScenarios: Set<String> = ["repairminder-staff-expired-token.yaml", "traveling-expired-token.yaml"]

    @Test(arguments: [false, true])
    func theLiveSuitePassesAgainstTheSandbox(shortLifetimes: Bool) async throws {
        let reports = try await run(shortLifetimes: shortLifetimes)
        #expect(reports.count == Self.liveScenarios.count)
        for report in reports where report.status != .passed {
            let file = URL(fileURLWithPath: report.file).lastPathComponent
            if !shortLifetimes, report.status == .skipped, Self.expiryScenarios.contains(file) {
                #expect(report.skipReason?.contains("--allow-wait") == true, "\(file): \(report.skipReason ?? "")")
                continue
            }
            Issue.record(
                "\(report.file) \(report.status): \(report.skipReason ?? report.failures.joined(separator: "\n"))")
        }
        if !shortLifetimes {
            let skipped = Set(
                reports.filter { $0.status == .skipped }.map { URL(fileURLWithPath: $0.file).lastPathComponent })
            #expect(
                skipped == Self.expiryScenarios,
                "with 15-minute tokens and 60 s to wait, exactly the expiry scenarios are skipped")
        }
    }

    /// A nightly run allowed to wait checks expiry at the real lifetimes (here the shared clock moves instead).
    @Test func allowedToWaitTheExpiryScenariosCheckRealLifetimes() async throws {
        let reports = try await run(allowWait: 20 * 60)
        for report in reports where report.status != .passed {
            Issue.record(
                "\(report.file) \(report.status): \(report.skipReason ?? report.failures.joined(separator: "\n"))")
        }
    }

    /// Allowed to wait, the expiry scenarios catch a backend that accepts expired tokens at its real lifetimes.
    @Test(arguments: [SandboxBreak.acceptsExpiredToken, .travelingAcceptsExpiredToken])
    func allowedToWaitExpiryBreaksAreCaughtAtRealLifetimes(_ broken: SandboxBreak) async throws {
        let reports = try await run(breaks: [broken], allowWait: 20 * 60)
        let caught = reports.filter { $0.status == .failed && !$0.infrastructureFailure }.map(\.file)
        #expect(caught.contains { Self.expiryScenarios.contains(URL(fileURLWithPath: $0).lastPathComponent) })
    }

    /// Only the breaks the live suite claims to catch (`SandboxBreak.caughtBy`); the others are the probe's.
    @Test(arguments: SandboxBreak.allCases.filter { $0.caughtBy.contains(.liveSuite) })
    func aBrokenPromiseFailsTheLiveSuite(_ broken: SandboxBreak) async throws {
        let reports = try await run(breaks: [broken], shortLifetimes: Self.needShortLifetimes.contains(broken))
        let caught = reports.filter { $0.status == .failed && !$0.infrastructureFailure }
        #expect(
            !caught.isEmpty, "the live suite passed against a sandbox with `\(broken.rawValue)` — \(broken.promise)")
    }

    /// A break left out of the live suite's column really passes it: `caughtBy` stays true as scenarios are added
    /// (a scenario that starts catching one of these should move it into the column above).
    @Test(arguments: SandboxBreak.allCases.filter { !$0.caughtBy.contains(.liveSuite) })
    func aBreakOnlyTheProbeCatchesPassesTheLiveSuite(_ broken: SandboxBreak) async throws {
        #expect(broken.caughtBy.contains(.probe), "`\(broken.rawValue)` is caught by no checker")
        let reports = try await run(breaks: [broken])
        let caught = reports.filter { $0.status == .failed }.map { URL(fileURLWithPath: $0.file).lastPathComponent }
        #expect(
            caught.isEmpty, "the live suite catches `\(broken.rawValue)` (\(caught)): add `.liveSuite` to its caughtBy")
    }

    @Test func scenariosWhoseVariablesAreMissingAreSkippedNamingThem() async throws {
        let reports = try await run(dropping: ["staff_password"])
        // Besides the expiry scenario that cannot wait out its token, every skip names the missing variable.
        let skipped = reports.filter { $0.status == .skipped && $0.skipReason?.contains("--allow-wait") != true }
        #expect(!skipped.isEmpty)
        for report in skipped {
            #expect(report.skipReason?.contains("staff_password") == true, "\(report.file): \(report.skipReason ?? "")")
        }
        #expect(reports.allSatisfy { $0.status != .failed })
    }

    /// No document names the customer logout endpoint: a backend that does not say where it is (no
    /// `customer_logout_path`) gets the customer-logout scenario skipped, naming the variable — not a failure.
    @Test func theUndocumentedCustomerLogoutPathIsAnOptionalVariable() async throws {
        let reports = try await run(dropping: ["customer_logout_path"])
        let skipped = reports.filter {
            $0.status == .skipped && $0.skipReason?.contains("customer_logout_path") == true
        }
        #expect(
            skipped.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["repairminder-customer-logout.yaml"])
        #expect(reports.allSatisfy { $0.status != .failed })
    }

    /// What no document states comes from an optional variable: a backend that does not give it gets exactly the
    /// scenarios that need it skipped, naming it, and nothing fails.
    static let undocumentedPromises: [(variable: String, scenarios: [String])] = [
        (
            "login_codes_single_use",
            [
                "repairminder-customer-code-single-use.yaml", "repairminder-staff-2fa-code-single-use.yaml",
                "repairminder-staff-magic-link-code-single-use.yaml",
            ]
        ),
        ("customer_me_path", ["repairminder-customer-logout.yaml"]),
        ("orders_path", ["repairminder-quarantine.yaml"]),
        ("legacy_login_path", ["legacy-login-2fa.yaml", "legacy-login-envelope.yaml"]),
        ("traveling_refresh_rotation", ["traveling-refresh-rotation.yaml"]),
        ("expiry_leeway_seconds", ["repairminder-staff-expired-token.yaml", "traveling-expired-token.yaml"]),
    ]

    @Test(arguments: LiveSuiteTests.undocumentedPromises)
    func anUndocumentedPromiseIsAnOptionalVariable(_ promise: (variable: String, scenarios: [String])) async throws {
        let reports = try await run(dropping: [promise.variable])
        let skipped = reports.filter { $0.status == .skipped && $0.skipReason?.contains(promise.variable) == true }
        #expect(skipped.map { URL(fileURLWithPath: $0.file).lastPathComponent }.sorted() == promise.scenarios)
        #expect(reports.allSatisfy { $0.status != .failed })
    }

    /// A backend that says it does not keep an undocumented promise ("false") still gets the documented part
    /// checked, and the scenario that needs the promise is skipped with the reason, never passed.
    @Test func aPromiseTheBackendDeclinesIsSkippedNotPassed() async throws {
        let reports = try await run(setting: ["login_codes_single_use": "false", "traveling_refresh_rotation": "false"])
        let declined: Set<String> = [
            "repairminder-customer-code-single-use.yaml", "repairminder-staff-2fa-code-single-use.yaml",
            "repairminder-staff-magic-link-code-single-use.yaml", "traveling-refresh-rotation.yaml",
        ]
        for report in reports {
            let file = URL(fileURLWithPath: report.file).lastPathComponent
            if declined.contains(file) {
                #expect(
                    report.status == .skipped && report.skipReason?.contains("not checked") == true,
                    "\(file): \(report.status)")
            } else if !Self.expiryScenarios.contains(file) {
                #expect(report.status == .passed, "\(file): \(report.status) \(report.failures)")
            }
        }
    }

    @Test func aBackendThatDoesNotAnswerIsAnInfrastructureFailureNotABrokenPromise() async throws {
        var vars: [String: JSONValue] = [:]
        let sandbox = try await Sandbox.start(SandboxOptions())
        for (name, value) in sandbox.liveVars() { vars[name] = .string(value) }
        await sandbox.stop() // the variables now point at ports where nothing listens
        let adapter = LiveHTTPAdapter()
        let reports = await ScenarioRunner(specs: Self.suite.specs, jobs: 1, vars: vars, live: adapter).run(
            Array(Self.liveScenarios.prefix(5)))
        await adapter.shutdown()
        #expect(reports.count == 5)
        for report in reports {
            #expect(report.status == .failed)
            #expect(report.infrastructureFailure)
            #expect(report.failures.first?.contains("no response from the backend") == true)
            #expect(report.failures.first?.contains("refused") == true)
        }
    }
}
