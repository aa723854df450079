import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// A promise that could not be checked is reported skipped with the reason — never passed: an end marked
/// `skip: true`, a flow `wait` or a scenario `wait:` step longer than a live run may wait (`--allow-wait`).
@Suite(.timeLimit(.minutes(5))) struct SkipVerdictTests {
    /// `GET /token` answers how long to wait (`body.wait`); the flow waits that long, then `GET /after`.
    /// A 204 answer means "nothing to check here": the `skip: true` end.
    static let waitingFlow = """
        flow: test.waiting
        defaults:
          base_url: "http://backend.test"
        start: token
        states:
          token:
            request: { method: GET, path: /token }
            on:
              - when: status == 204
                goto: nothing_to_check
              - when: status == 200
                set: { seconds: body.wait }
                goto: let_it_pass
          let_it_pass:
            wait: seconds
            goto: after
          after:
            request: { method: GET, path: /after }
            on:
              - when: status == 401
                goto: held
              - else: true
                goto: broken
          held: { end: held, success: true, reason: "refused once expired" }
          broken: { end: broken, success: false, reason: "accepted after expiry" }
          nothing_to_check: { end: nothing_to_check, skip: true, reason: "not checked: the backend had no token to expire" }
        """

    /// A flow that calls the waiting flow: what a sub-flow could not check, its caller cannot either.
    static let callerFlow = """
        flow: test.caller
        start: inner
        states:
          inner:
            call: test.waiting
            on:
              - when: outcome == "held"
                goto: done
              - else: true
                goto: failed
          done: { end: done, success: true }
          failed: { end: failed, success: false }
        """

    static func load(_ scenario: String) throws -> (SpecSet, Scenario) {
        try InlineSuite.load([
            "flows/test/waiting.yaml": waitingFlow, "flows/test/caller.yaml": callerFlow, "scenarios/s.yaml": scenario,
        ])
    }

    static func live(flow: String = "test.waiting", expect: String = "held", steps: String? = nil) -> String {
        if let steps { return "scenario: s\nlive: true\nsteps:\n\(steps)\n" }
        return "scenario: s\nlive: true\nflow: \(flow)\nexpect: { outcome: \(expect) }\n"
    }

    func run(_ scenario: String, backend: WaitingBackend, allowWait: Double = ScenarioRunner.defaultAllowWait)
        async throws -> ScenarioReport
    {
        let (specs, loaded) = try Self.load(scenario)
        var runner = ScenarioRunner(specs: specs, jobs: 1, live: backend)
        runner.liveClock = VirtualClock()
        runner.allowWait = allowWait
        return await runner.run(loaded)
    }

    @Test func aLiveWaitLongerThanAllowedSkipsWithTheReasonAndTheOptionThatAllowsIt() async throws {
        let backend = WaitingBackend(wait: 901, after: 401)
        let report = try await run(Self.live(), backend: backend)
        #expect(report.status == .skipped)
        #expect(report.failures.isEmpty)
        let reason = try #require(report.skipReason)
        #expect(reason.contains("state `let_it_pass` of flow `test.waiting` would wait 15 min 1 s"), "\(reason)")
        #expect(reason.contains("this run may wait (1 min)") || reason.contains("(60 s)"), "\(reason)")
        #expect(reason.contains("--allow-wait 16m"), "\(reason)")
        #expect(await backend.paths == ["/token"], "nothing after the wait was sent")
    }

    @Test func allowedToWaitTheSameScenarioIsReallyChecked() async throws {
        let held = try await run(Self.live(), backend: WaitingBackend(wait: 901, after: 401), allowWait: 20 * 60)
        #expect(held.status == .passed)
        let broken = try await run(Self.live(), backend: WaitingBackend(wait: 901, after: 200), allowWait: 20 * 60)
        #expect(broken.status == .failed, "allowed to wait, a backend that accepts the expired token fails")
    }

    @Test func aWaitExactlyAtTheAllowanceRuns() async throws {
        #expect(try await run(Self.live(), backend: WaitingBackend(wait: 60, after: 401)).status == .passed)
        #expect(try await run(Self.live(), backend: WaitingBackend(wait: 60.5, after: 401)).status == .skipped)
    }

    @Test func anEndMarkedSkipIsReportedSkippedNotPassedNorFailed() async throws {
        let report = try await run(Self.live(), backend: WaitingBackend(wait: nil, after: 401))
        #expect(report.status == .skipped)
        #expect(report.skipReason == "not checked: the backend had no token to expire")
    }

    @Test func aScenarioThatNamesTheSkippedEndChecksItLikeAnyOther() async throws {
        let report = try await run(
            Self.live(expect: "nothing_to_check"), backend: WaitingBackend(wait: nil, after: 401))
        #expect(report.status == .passed, "\(report.failures) \(report.skipReason ?? "")")
        let wrong = try await run(Self.live(expect: "nothing_to_check"), backend: WaitingBackend(wait: 5, after: 401))
        #expect(wrong.status == .failed, "expecting the skipped end and reaching `held` is a failure")
    }

    @Test func aSkipInASubFlowSkipsTheCaller() async throws {
        let report = try await run(
            Self.live(flow: "test.caller", expect: "done"), backend: WaitingBackend(wait: 3600, after: 401))
        #expect(report.status == .skipped)
        #expect(report.skipReason?.contains("flow `test.waiting` would wait 1 h") == true, "\(report.skipReason ?? "")")
    }

    @Test func aLongWaitStepInALiveScenarioSkipsIt() async throws {
        let steps =
            "  - run: test.waiting\n    expect: { outcome: held }\n  - wait: 16m\n  - run: test.waiting\n    expect: { outcome: held }"
        let backend = WaitingBackend(wait: 1, after: 401)
        let report = try await run(Self.live(steps: steps), backend: backend)
        #expect(report.status == .skipped)
        #expect(report.skipReason?.contains("step 2 would wait 16 min") == true, "\(report.skipReason ?? "")")
        #expect(await backend.paths == ["/token", "/after"], "the step after the wait did not run")
    }

    @Test func aFailureBeforeTheSkipStillFailsTheScenario() async throws {
        let steps = "  - run: test.waiting\n    expect: { outcome: held }\n  - wait: 16m"
        let report = try await run(Self.live(steps: steps), backend: WaitingBackend(wait: 1, after: 200))
        #expect(report.status == .failed, "skipping later must not hide a broken promise seen earlier")
        #expect(report.skipReason == nil)
    }

    @Test func scriptedRunsWaitOnTheirVirtualClockWithoutLimit() async throws {
        let scenario = """
            scenario: s
            flow: test.waiting
            exchanges:
              - request: { method: GET, path: /token }
                response: { json: { wait: 7776000 } }
              - request: { method: GET, path: /after }
                response: { status: 401 }
            expect: { outcome: held }
            """
        let (specs, loaded) = try Self.load(scenario)
        let report = await ScenarioRunner(specs: specs, jobs: 1).run(loaded)
        #expect(report.status == .passed, "\(report.failures) \(report.skipReason ?? "")")
    }

    @Test func anEndCannotBeBothSkippedAndASuccess() {
        let flow = """
            flow: test.bad
            start: a
            states:
              a: { end: a, skip: true, success: true }
            """
        let specs = SpecSet(sources: ["flows/test/bad.yaml": flow])
        let errors = specs.diagnostics.sorted.filter { $0.severity == .error }.map(\.description)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("`skip: true` and `success: true`") == true, "\(errors)")
        let fine = SpecSet(sources: [
            "flows/test/ok.yaml": "flow: test.ok\nstart: a\nstates:\n  a: { end: a, skip: true }\n"
        ])
        #expect(
            !fine.diagnostics.hasErrors,
            "`skip: true` needs no `success`: \(fine.diagnostics.sorted.map(\.description))")
    }

    @Test func durationsParseAndDescribe() {
        #expect(Durations.parse("20m") == 1200)
        #expect(Durations.parse("90s") == 90)
        #expect(Durations.parse("1.5h") == 5400)
        #expect(Durations.parse("250ms") == 0.25)
        #expect(Durations.parse("45") == 45)
        #expect(Durations.parse("-1m") == nil)
        #expect(Durations.parse("inf") == nil)
        #expect(Durations.parse("1e400") == nil)
        #expect(Durations.parse("m") == nil)
        #expect(Durations.parse("20 minutes") == nil)
        #expect(Durations.describe(901.5) == "15 min 2 s")
        #expect(Durations.describe(45) == "45 s")
        #expect(Durations.describe(7_776_000) == "90 d")
        #expect(Durations.flag(901.5) == "16m")
        #expect(Durations.flag(30) == "30s")
        #expect(Durations.flag(4 * 3600 + 1) == "5h")
    }
}

/// `GET /token`: 204 when `wait` is nil, else 200 `{"wait": seconds}`; `GET /after`: the given status.
actor WaitingBackend: HTTPAdapter {
    let wait: Double?
    let after: Int
    private(set) var paths: [String] = []

    init(wait: Double?, after: Int) {
        self.wait = wait
        self.after = after
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        paths.append(request.path)
        if request.path == "/after" { return HTTPResponse(status: after) }
        guard let wait else { return HTTPResponse(status: 204) }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json")], body: Data("{\"wait\": \(wait)}".utf8))
    }
}
