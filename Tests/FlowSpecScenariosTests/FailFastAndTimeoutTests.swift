// Over 300 lines: --fail-fast and --timeout interact (a timed-out scenario is a failure that stops the rest), so
// their tests share fixtures and stay together.
import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// `--fail-fast` and `--timeout` as `ScenarioRunner.failFast` and `ScenarioRunner.scenarioTimeout`: which scenarios
/// run, how the others are reported, and that a scenario stuck on its backend cannot hold the run.
@Suite(.timeLimit(.minutes(5))) struct FailFastAndTimeoutTests {
    /// One request, `GET /ping`: 200 ends `ok`, anything else `refused`. A literal base URL, so live scenarios
    /// need no run variables.
    static let pingFlow = """
        flow: test.ping
        defaults:
          base_url: "http://backend.test"
        start: ping
        states:
          ping:
            request:
              method: GET
              path: /ping
            on:
              - when: status == 200
                goto: ok
              - when: status != 200
                goto: refused
          ok:
            end: ok
            success: true
          refused:
            end: refused
            success: false
        """

    /// A scripted scenario answered 200 that passes, or fails by expecting the other outcome.
    static func scripted(_ name: String, passes: Bool) -> String {
        """
        scenario: \(name)
        flow: test.ping
        exchanges:
          - request: { method: GET, path: /ping }
            response: { status: 200 }
        expect:
          outcome: \(passes ? "ok" : "refused")
        """
    }

    /// A live scenario that passes when the backend answers 200.
    static func live(_ name: String) -> String {
        """
        scenario: \(name)
        live: true
        flow: test.ping
        expect:
          outcome: ok
        """
    }

    /// Loads the ping flow and the given scenario documents (name → YAML), in the given order.
    static func load(_ documents: [(String, String)]) throws -> (specs: SpecSet, scenarios: [Scenario]) {
        var sources = ["flows/test/ping.yaml": pingFlow]
        let files = documents.enumerated().map { index, document in
            // Zero-padded so SpecSet's file-name order is the order given.
            (String(format: "scenarios/%02d-%@.yaml", index, document.0), document.1)
        }
        for (file, text) in files { sources[file] = text }
        let loaded = LoadedFiles(sources: sources)
        let specs = loaded.program
        var diagnostics = specs.diagnostics
        var byFile: [String: Scenario] = [:]
        for (file, root) in loaded.scenarioDocuments {
            if let scenario = ScenarioDecoder.decode(root, file: file, specs: specs, &diagnostics) {
                byFile[file] = scenario
            }
        }
        #expect(!diagnostics.hasErrors, "\(diagnostics.sorted.map(\.description))")
        let scenarios = try files.map { file, _ in try #require(byFile[file], "\(file) did not load") }
        return (specs, scenarios)
    }

    static let failFastReason = "not run: --fail-fast stopped the run at the first failure"

    // MARK: --fail-fast

    @Test func failFastWithOneJobSkipsEverythingAfterTheFirstFailure() async throws {
        let (specs, scenarios) = try Self.load([
            ("a", Self.scripted("a passes", passes: true)), ("b", Self.scripted("b fails", passes: false)),
            ("c", Self.scripted("c passes", passes: true)), ("d", Self.scripted("d passes", passes: true)),
        ])
        var runner = ScenarioRunner(specs: specs, jobs: 1)
        runner.failFast = true
        let finished = FinishedIndices()
        let reports = await runner.run(scenarios) { index, _ in await finished.add(index) }

        #expect(reports.map(\.name) == ["a passes", "b fails", "c passes", "d passes"], "reported in the order given")
        #expect(reports.map(\.status) == [.passed, .failed, .skipped, .skipped])
        #expect(reports.map(\.skipReason) == [nil, nil, Self.failFastReason, Self.failFastReason])
        #expect(
            reports[1].failures.contains { $0.contains("refused") },
            "the failure is the real one: \(reports[1].failures)")
        for skipped in reports[2...] {
            #expect(
                skipped.runs.isEmpty && skipped.exchanges.isEmpty && skipped.paths.isEmpty, "\(skipped.name) never ran")
            #expect(skipped.failures.isEmpty && !skipped.infrastructureFailure)
        }
        #expect(await finished.sorted == [0, 1, 2, 3], "progress output hears of the skipped ones too")
    }

    @Test func withoutFailFastEveryScenarioRuns() async throws {
        let (specs, scenarios) = try Self.load([
            ("a", Self.scripted("a passes", passes: true)), ("b", Self.scripted("b fails", passes: false)),
            ("c", Self.scripted("c passes", passes: true)), ("d", Self.scripted("d passes", passes: true)),
        ])
        let reports = await ScenarioRunner(specs: specs, jobs: 1).run(scenarios)
        #expect(reports.map(\.status) == [.passed, .failed, .passed, .passed])
        #expect(reports.allSatisfy { $0.skipReason == nil })
    }

    /// With several jobs, which scenarios finish before the failure is seen depends on scheduling; what cannot
    /// depend on it: every scenario has a report, the failure is among them, a skipped one never ran, and
    /// nothing is started once the failure is known.
    @Test func failFastWithSeveralJobsLetsRunningScenariosFinishAndStartsNoMore() async throws {
        var documents = [
            ("a", Self.scripted("a passes", passes: true)), ("b", Self.scripted("b fails", passes: false)),
        ]
        for index in 0..<8 { documents.append(("p\(index)", Self.scripted("p\(index) passes", passes: true))) }
        let (specs, scenarios) = try Self.load(documents)
        var runner = ScenarioRunner(specs: specs, jobs: 3)
        runner.failFast = true
        let reports = await runner.run(scenarios)

        #expect(reports.map(\.name) == scenarios.map(\.name), "no report missing, in the order given")
        #expect(reports[1].status == .failed)
        #expect(reports.filter { $0.status == .failed }.count == 1)
        for report in reports where report.status == .skipped {
            #expect(report.skipReason == Self.failFastReason)
            #expect(report.runs.isEmpty, "\(report.name) was reported skipped but ran")
        }
        for report in reports where report.status != .skipped { #expect(!report.runs.isEmpty, "\(report.name) ran") }
    }

    /// When every scenario fails, the first report the runner sees is a failure, so nothing beyond the first
    /// `jobs` scenarios is started — deterministically. Of those, one that had not begun when the first failed
    /// is skipped too; at least one ran and failed.
    @Test func failFastWithSeveralJobsStartsNothingBeyondTheFirstBatchWhenEverythingFails() async throws {
        let documents = (0..<6).map { ("f\($0)", Self.scripted("f\($0) fails", passes: false)) }
        let (specs, scenarios) = try Self.load(documents)
        var runner = ScenarioRunner(specs: specs, jobs: 2)
        runner.failFast = true
        let reports = await runner.run(scenarios)
        #expect(
            reports[2...].allSatisfy { $0.status == .skipped && $0.skipReason == Self.failFastReason },
            "\(reports.map(\.status))")
        #expect(reports[..<2].allSatisfy { $0.status == .failed || $0.status == .skipped })
        #expect(reports[..<2].contains { $0.status == .failed })
    }

    /// Live scenarios queue for the backend one at a time: with several jobs they are all started at once but
    /// wait their turn. After the first failure the waiting ones must not run — they have not started.
    @Test func failFastSkipsLiveScenariosStillWaitingForTheBackend() async throws {
        let (specs, scenarios) = try Self.load((0..<4).map { ("l\($0)", Self.live("live \($0)")) })
        let backend = answering(500)
        var runner = ScenarioRunner(specs: specs, jobs: 4, live: backend)
        runner.failFast = true
        let reports = await runner.run(scenarios)

        #expect(await backend.requests.count == 1, "only the first live scenario may reach the backend")
        #expect(reports.filter { $0.status == .failed }.count == 1)
        #expect(reports.filter { $0.status == .skipped }.count == 3)
        #expect(
            reports.filter { $0.status == .skipped }.allSatisfy {
                $0.skipReason == Self.failFastReason && $0.runs.isEmpty
            })
    }

    // MARK: --timeout

    /// The limit is measured on an injected clock the test fires once the request is in flight, so nothing here
    /// sleeps for real (`ExecutionEndToEndTests` times a real `--timeout 1` through the binary).
    @Test func aLiveScenarioWhoseBackendNeverAnswersFailsAtTheTimeout() async throws {
        let (specs, scenarios) = try Self.load([("hang", Self.live("backend never answers"))])
        let backend = SilentBackend()
        let timer = ManualTimer()
        var runner = ScenarioRunner(specs: specs, jobs: 1, live: backend)
        runner.scenarioTimeout = 0.5
        runner.timeoutClock = timer
        async let running = runner.run(scenarios)
        while !(await backend.sawRequest) { try await Task.sleep(for: .milliseconds(5)) }
        // The limit's timer starts beside the scenario, so under load it may ask a moment after the request left.
        let asked = ContinuousClock.now
        while await timer.requested.isEmpty, ContinuousClock.now - asked < .seconds(30) {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await timer.requested == [0.5], "the limit was not measured on the runner's timeout clock")
        await timer.fire()
        let reports = await running

        let report = try #require(reports.first)
        #expect(report.status == .failed)
        #expect(!report.infrastructureFailure, "a scenario over its limit is a failure, not a backend that refused")
        #expect(report.failures == ["timed out after 0.5 s (--timeout); the scenario was stopped"])
        #expect(report.durationSeconds == 0.5)
        // Abandoned, not leaked for ever: the stuck request is cancelled.
        let deadline = ContinuousClock.now + .seconds(60)
        while !(await backend.sawCancellation), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await backend.sawCancellation, "the timed-out scenario's request was never cancelled")
    }

    @Test func aTimedOutScenarioIsAFailureForFailFast() async throws {
        let (specs, scenarios) = try Self.load([
            ("hang", Self.live("backend never answers")), ("next", Self.live("would pass")),
        ])
        var runner = ScenarioRunner(specs: specs, jobs: 1, live: SilentBackend())
        runner.scenarioTimeout = 0.5
        let timer = ManualTimer()
        await timer.fire()
        runner.timeoutClock = timer
        runner.failFast = true
        let reports = await runner.run(scenarios)
        #expect(reports.map(\.status) == [.failed, .skipped])
        #expect(reports[1].skipReason == Self.failFastReason)
    }

    /// On the machine's clock the limit is real time, which the computing work looks at too: it is generous here,
    /// since the whole suite on two cores has stalled a process for tens of seconds, and over the limit is over.
    @Test func aLiveScenarioThatFinishesInTimePasses() async throws {
        let (specs, scenarios) = try Self.load([("quick", Self.live("backend answers at once"))])
        var runner = ScenarioRunner(specs: specs, jobs: 1, live: answering(200))
        runner.scenarioTimeout = 100
        let reports = await runner.run(scenarios)
        #expect(reports.map(\.status) == [.passed], "\(reports.map(\.failures))")
        #expect(reports[0].durationSeconds < 100)
    }

    /// Scripted scenarios run on a virtual clock: a two-hour `wait:` takes no real time, so a limit far below two
    /// hours (and far above what a loaded machine stalls for) does not touch them.
    @Test func scriptedScenariosAreUnaffectedEvenWithLongVirtualWaits() async throws {
        let waiting = """
            scenario: waits two hours of virtual time
            steps:
              - wait: 2h
              - run: test.ping
                expect: { outcome: ok }
            exchanges:
              - request: { method: GET, path: /ping }
                response: { status: 200 }
            """
        let (specs, scenarios) = try Self.load([("plain", Self.scripted("plain", passes: true)), ("waiting", waiting)])
        var runner = ScenarioRunner(specs: specs, jobs: 2)
        runner.scenarioTimeout = 100
        let reports = await runner.run(scenarios)
        #expect(reports.map(\.status) == [.passed, .passed], "\(reports.map(\.failures))")
    }

    @Test func theLimitIsWrittenAsTheUserGaveIt() {
        #expect(ScenarioRunner.seconds(1) == "1 s")
        #expect(ScenarioRunner.seconds(60) == "60 s")
        #expect(ScenarioRunner.seconds(0.5) == "0.5 s")
        #expect(ScenarioRunner.seconds(1.25) == "1.25 s")
        #expect(ScenarioRunner.seconds(0.04) == "0.04 s", "not rounded to a misleading 0.0 s")
    }

    /// Infinity, or a limit so large no clock reaches it, means no limit — never a crash converting it to a `Duration`.
    @Test func anUnreachableLimitMeansNoLimit() async throws {
        let (specs, scenarios) = try Self.load([("plain", Self.scripted("plain", passes: true))])
        for limit in [Double.infinity, 1e300, 1e20] {
            var runner = ScenarioRunner(specs: specs, jobs: 1)
            runner.scenarioTimeout = limit
            #expect(await runner.run(scenarios).map(\.status) == [.passed])
        }
    }
}

/// Indices `onFinish` was called with.
private actor FinishedIndices {
    private var indices: [Int] = []
    func add(_ index: Int) { indices.append(index) }
    var sorted: [Int] { indices.sorted() }
}

/// A timeout clock the test fires: `sleep` records the seconds asked for and returns once `fire()` was called.
private actor ManualTimer: FlowClock {
    private(set) var requested: [Double] = []
    private var fired = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func now() -> Double { 0 }

    func sleep(seconds: Double) async {
        requested.append(seconds)
        if fired { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func fire() {
        fired = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}

/// A live backend that takes every request and never answers: it holds it until cancelled, or for an hour — longer
/// than any test here waits; a broken timeout then fails the test at its time limit instead of hanging the run.
private actor SilentBackend: HTTPAdapter {
    private(set) var sawRequest = false
    private(set) var sawCancellation = false

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        sawRequest = true
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {
            sawCancellation = true
            throw TransportError(.timeout, url: request.url, cause: "cancelled")
        }
        return HTTPResponse(status: 200)
    }
}
