import Foundation
import Testing
@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// `--timeout` bounds a scenario that never waits. Its timer needs a thread, and a scenario busy computing keeps
/// one (with `--jobs` as many as the machine has cores, all of them), so the timer fired only once the work was
/// done, and an abandoned scenario went on computing. Scenarios now carry their deadline (`RunDeadline`) and stop
/// between flow steps once it has passed.
@Suite(.timeLimit(.minutes(3))) struct BusyScenarioTimeoutTests {
    /// `test.busy` calls `test.spin` (20,000 choice steps) 100 times: two million steps, tens of seconds of work
    /// in a debug build, without a request or a wait.
    static let flows = [
        "flows/test/spin.yaml": """
            flow: test.spin
            variables:
              n: 0
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
              done:
                end: done
                success: true
            """,
        "flows/test/busy.yaml": """
            flow: test.busy
            variables:
              rounds: 0
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
              done:
                end: done
                success: true
            """,
    ]

    static func load(copies: Int) throws -> (SpecSet, [Scenario]) {
        var sources = flows
        for copy in 0..<copies {
            sources["scenarios/busy-\(copy).yaml"] = "scenario: busy \(copy)\nflow: test.busy\nexchanges: []\nexpect:\n  outcome: done\n"
        }
        let specs = SpecSet.fromSources(sources)
        var diagnostics = specs.diagnostics
        let scenarios = specs.scenarioDocuments.sorted { $0.0 < $1.0 }.compactMap { file, root in
            ScenarioDecoder.decode(root, file: file, specs: specs, &diagnostics)
        }
        #expect(!diagnostics.hasErrors, "\(diagnostics.sorted.map(\.description))")
        try #require(scenarios.count == copies)
        return (specs, scenarios)
    }

    /// As many busy scenarios as jobs: every thread of a two-core machine's pool is computing, and the run still
    /// ends at the limit, each scenario reported timed out.
    @Test func busyScenariosOnEveryThreadStopAtTheTimeout() async throws {
        let (specs, scenarios) = try Self.load(copies: 2)
        var runner = ScenarioRunner(specs: specs, jobs: 2)
        runner.scenarioTimeout = 0.5
        let started = ContinuousClock.now
        let reports = await runner.run(scenarios)
        let elapsed = ContinuousClock.now - started
        #expect(reports.map(\.status) == [.failed, .failed])
        #expect(reports.allSatisfy { $0.failures == ["timed out after 0.5 s (--timeout); the scenario was stopped"] }, "\(reports.map(\.failures))")
        #expect(elapsed < .seconds(10), "the run took \(elapsed): the busy scenarios held the timer's threads")
    }

    /// The scenario itself stops at its deadline: abandoned, it does not go on computing in the background.
    @Test func aBusyScenarioStopsItselfAtItsDeadline() async throws {
        let (specs, scenarios) = try Self.load(copies: 1)
        let runner = ScenarioRunner(specs: specs, jobs: 1)
        let started = ContinuousClock.now
        let report = await RunDeadline.$current.withValue(RunDeadline(afterSeconds: 0.3)) { await runner.run(scenarios[0]) }
        let elapsed = ContinuousClock.now - started
        #expect(report.status == .failed)
        #expect(report.failures == ["stopped: the scenario's time limit was reached"], "\(report.failures)")
        #expect(elapsed < .seconds(10), "the scenario went on for \(elapsed) past its deadline")
    }

    /// A flow run past its deadline ends in error at its next look, naming the flow, whatever runs it.
    @Test func aFlowRunStopsAtItsDeadline() async throws {
        let (specs, _) = try Self.load(copies: 0)
        let redactor = Redactor()
        let context = RunContextFactory(specs: specs, vars: [:], origin: .scenario)
            .context(backend: .scripted(ScriptedBackend(exchanges: [], anyOrder: false, redactor: redactor)), clock: VirtualClock(),
                     store: TokenStore(redactor: redactor), inputs: LayeredInputSource(values: [:]), redactor: redactor)
        let result = await RunDeadline.$current.withValue(RunDeadline(afterSeconds: 0)) { await Interpreter(context: context).run(flow: "test.busy") }
        guard case .error(let message) = result.ending else { Issue.record("ended \(result.ending)"); return }
        #expect(message.hasPrefix("stopped in flow `test."), "\(message)")
        #expect(message.hasSuffix("the run's time limit was reached"), "\(message)")
    }
}
