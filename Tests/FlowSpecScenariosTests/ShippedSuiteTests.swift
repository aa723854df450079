import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The scripted scenarios (live ones need a backend; LiveSuiteTests runs them against the sandbox).
func shippedSuite() -> Suite {
    var suite = SuiteLoader.load(
        paths: [repositoryRoot.appendingPathComponent("scenarios").path],
        flowsFolder: repositoryRoot.appendingPathComponent("flows").path)
    suite.scenarios.removeAll { $0.live }
    return suite
}

@Suite(.timeLimit(.minutes(5))) struct ShippedSuiteTests {
    @Test func everyShippedFileIsClean() {
        let suite = shippedSuite()
        #expect(suite.diagnostics.items.map(\.description) == [])
        #expect(suite.scenarios.count >= 60)
    }

    @Test func everyShippedScenarioPasses() async {
        let suite = shippedSuite()
        let reports = await ScenarioRunner(specs: suite.specs, jobs: 4).run(suite.scenarios)
        for report in reports where report.status != .passed {
            Issue.record("\(report.file): \(report.failures.joined(separator: "\n"))")
        }
    }

    /// Without traces (no coverage, JSON or HTML report asked for) every verdict, path and message is the same; the
    /// reports only lack the runs nobody will show.
    @Test func runningWithoutTracesChangesNoVerdict() async {
        let suite = shippedSuite()
        var plain = ScenarioRunner(specs: suite.specs, jobs: 4)
        plain.recordTraces = false
        let traced = await ScenarioRunner(specs: suite.specs, jobs: 4).run(suite.scenarios)
        let untraced = await plain.run(suite.scenarios)
        #expect(traced.count == untraced.count)
        #expect(traced.allSatisfy { !$0.runs.isEmpty } && untraced.allSatisfy { $0.runs.isEmpty })
        for (a, b) in zip(traced, untraced) {
            #expect(a.status == b.status && a.failures == b.failures && a.skipReason == b.skipReason, "\(a.file)")
            #expect(a.paths.map { "\($0.flow): \($0.path)" } == b.paths.map { "\($0.flow): \($0.path)" }, "\(a.file)")
        }
    }

    /// Every scenario can fail: expecting any other outcome its flow can produce makes it fail.
    @Test func aWrongExpectedOutcomeFailsEveryScenario() async {
        let suite = shippedSuite()
        var mutants: [Scenario] = []
        for scenario in suite.scenarios {
            var mutant = scenario
            var changed = false
            for (i, step) in mutant.steps.enumerated() {
                guard case .run(var run) = step, var expect = run.expect, let outcome = expect.outcome,
                    let flow = suite.specs.flows[run.flow.name]
                else { continue }
                let others = FlowOutcomes.possible(flow, specs: suite.specs).subtracting([outcome]).sorted()
                expect.outcome = others.first { !Flow.reservedOutcomes.contains($0) } ?? others.first
                run.expect = expect
                mutant.steps[i] = .run(run)
                changed = true
            }
            if changed { mutants.append(mutant) }
        }
        #expect(mutants.count >= 60)
        let reports = await ScenarioRunner(specs: suite.specs, jobs: 4).run(mutants)
        for report in reports where report.status == .passed {
            Issue.record("mutated outcome still passes: \(report.file)")
        }
    }

    /// Exchanges are not decoration: a scenario missing its last scripted answer fails.
    @Test func droppingTheLastExchangeFailsEveryScenarioThatHasExchanges() async {
        let suite = shippedSuite()
        let mutants = suite.scenarios.filter { !$0.exchanges.isEmpty }.map { scenario -> Scenario in
            var mutant = scenario
            if mutant.exchanges[mutant.exchanges.count - 1].times > 1 {
                mutant.exchanges[mutant.exchanges.count - 1].times -= 1
            } else {
                mutant.exchanges.removeLast()
            }
            return mutant
        }
        let reports = await ScenarioRunner(specs: suite.specs, jobs: 4).run(mutants)
        for report in reports where report.status == .passed {
            Issue.record("scenario passes without its last exchange: \(report.file)")
        }
    }

    /// Store and request-count expectations are checked, not decoration.
    @Test func wrongStoreAndRequestCountExpectationsFail() async {
        let suite = shippedSuite()
        var mutants: [Scenario] = []
        for scenario in suite.scenarios {
            for (i, step) in scenario.steps.enumerated() {
                guard case .run(var run) = step, var expect = run.expect else { continue }
                if !expect.store.isEmpty {
                    var mutant = scenario
                    expect.store[0].1 = .string("definitely-not-\(expect.store[0].1.interpolated)")
                    run.expect = expect
                    mutant.steps[i] = .run(run)
                    mutants.append(mutant)
                } else if let count = expect.requestCount {
                    var mutant = scenario
                    expect.requestCount = count + 1
                    run.expect = expect
                    mutant.steps[i] = .run(run)
                    mutants.append(mutant)
                }
                break
            }
        }
        #expect(mutants.count >= 20)
        let reports = await ScenarioRunner(specs: suite.specs, jobs: 4).run(mutants)
        for report in reports where report.status == .passed {
            Issue.record("mutated store/request expectation still passes: \(report.file)")
        }
    }

    @Test func secretsNeverAppearInFailureReports() async {
        let suite = shippedSuite()
        let reports = await ScenarioRunner(specs: suite.specs, jobs: 4).run(
            suite.scenarios.map { scenario in
                var mutant = scenario
                mutant.exchanges = Array(mutant.exchanges.dropLast())
                return mutant
            })
        for (scenario, report) in zip(suite.scenarios, reports) {
            let text = report.failures.joined(separator: "\n") + (report.lastExchange ?? "")
            for secret in ScenarioSecrets.values(in: scenario, specs: suite.specs) where text.contains(secret) {
                Issue.record("\(report.file) leaks \(secret.prefix(3))… in its report")
            }
        }
    }
}

/// Values that must never be printed: store contents and secret inputs.
enum ScenarioSecrets {
    static func values(in scenario: Scenario, specs: SpecSet) -> [String] {
        var out: [String] = []
        // Store contents, but for identifiers (`note_id`): an object's id is shown in paths and reasons by design,
        // as the masking of credentials by their use keeps ids readable.
        for namespace in scenario.store.values {
            for (key, value) in namespace where !(key == "id" || key.hasSuffix("_id")) {
                if case .string(let s) = value, s.count >= 4 { out.append(s) }
            }
        }
        let secretInputs = Set(specs.flows.values.flatMap { $0.inputs.filter(\.secret).map(\.name) })
        for (name, values) in scenario.inputs.values where secretInputs.contains(name) {
            out += values.map(\.source).filter { $0.count >= 4 }
        }
        for exchange in scenario.exchanges {
            if case .reply(let response) = exchange.response, case let json = response.json {
                collectTokens(json, into: &out)
            }
        }
        return out
    }

    static func collectTokens(_ json: JSONValue, into out: inout [String]) {
        switch json {
        case .object(let fields):
            for (key, value) in fields {
                if key.lowercased().contains("token"), case .string(let s) = value, s.count >= 4 { out.append(s) }
                collectTokens(value, into: &out)
            }
        case .array(let items): items.forEach { collectTokens($0, into: &out) }
        default: break
        }
    }
}
