import ArgumentParser
import FlowSpecScenarios
import Foundation

/// Loads a suite, selects scenarios, starts the live backend if needed, and runs them: what `run` and
/// `coverage` share.
struct SuiteRun {
    var suite: Suite
    var plan: [(scenario: Scenario, repetition: Int?)]
    var reports: [ScenarioReport]
    var started: Date

    /// The loaded suite, or exit 2 after printing its errors.
    static func load(paths: [String], flows: String?) throws -> Suite {
        let suite = SuiteLoader.load(paths: paths, flowsFolder: flows)
        if suite.diagnostics.hasErrors {
            for diagnostic in suite.diagnostics.sorted { Console.error(diagnostic.description) }
            Console.error("not running: fix the errors above (flowspec check shows them too)")
            throw ExitCode(Exit.invalid)
        }
        return suite
    }

    static func execute(
        suite: Suite, plan: [(scenario: Scenario, repetition: Int?)], options: SuiteOptions, recordExchanges: Bool,
        recordTraces: Bool = true, onReport: @escaping @Sendable (Int, ScenarioReport) async -> Void
    ) async throws -> SuiteRun {
        var runVars = try options.variables.resolved()
        let live = plan.map(\.scenario).filter(\.live)
        let backend = try await LiveBackend.prepare(
            EmbeddedSandboxRule(
                needed: !live.isEmpty,
                backendVariables: suite.specs.baseURLVariables(from: live.flatMap(\.flowNames)),
                embedded: !options.noSandbox),
            vars: &runVars, options: options.http.liveOptions())
        if let backend {
            do { try BaseURLCheck.validate(suite.specs.flows.values, vars: runVars) } catch {
                await backend.stop(); throw error
            }
        }
        var runner = ScenarioRunner(specs: suite.specs, jobs: options.jobs, vars: runVars, live: backend?.adapter)
        options.execution.configure(&runner)
        runner.recordExchanges = recordExchanges
        runner.recordTraces = recordTraces
        let started = Date()
        var reports = await runner.run(plan.map(\.scenario)) { index, report in
            var report = report
            report.repetition = plan[index].repetition
            await onReport(index, report)
        }
        for index in reports.indices { reports[index].repetition = plan[index].repetition }
        await backend?.stop()
        return SuiteRun(suite: suite, plan: plan, reports: reports, started: started)
    }
}
