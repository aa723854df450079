import ArgumentParser
import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecReports
import FlowSpecSandbox
import FlowSpecScenarios
import Foundation

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios and report pass or fail for each.",
        discussion:
            "Ends with the line `N passed, N failed[, N skipped]`. Exit 0 all passed (at least one scenario was checked), 1 a scenario failed or every scenario was skipped, 2 invalid spec or usage, 3 infrastructure error."
    )

    @Argument(help: "Scenario files or folders.")
    var paths: [String]

    @OptionGroup var suiteOptions: SuiteOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let suite = try SuiteRun.load(paths: paths, flows: suiteOptions.flowsFolder.flows)
        let selection = suiteOptions.selection
        let plan = try selection.plan(suite.scenarios)
        if selection.listOnly {
            selection.list(plan)
            return
        }
        if plan.isEmpty, selection.shard != nil, !suite.scenarios.isEmpty {
            // A fixed CI matrix can have more shards than a filtered suite has scenarios: nothing to do is not an error.
            output.consoleStream.print("no scenarios to run\(selection.describe)")
            output.consoleStream.print(ConsoleReporter.summary([]))
            return
        }
        if plan.isEmpty {
            Console.error("no scenarios found in \(paths.joined(separator: " "))\(selection.describe)")
            throw ExitCode(Exit.invalid)
        }
        let requests = try output.prepare()
        var reporter = output.consoleReporter
        reporter.repetitions = selection.repetitions > 1 ? selection.repetitions : nil
        let progress = ConsoleProgress(
            total: plan.count, reporter: reporter, quiet: output.quiet, stream: output.consoleStream)
        await progress.start()
        let result = try await SuiteRun.execute(
            suite: suite, plan: plan, options: suiteOptions,
            recordExchanges: output.needs.contains(.exchanges), recordTraces: output.needs.contains(.traces)
        ) { index, report in
            await progress.finished(index, report)
        }
        await progress.finish()
        output.consoleStream.print(ConsoleReporter.summary(result.reports))
        try output.write(
            result.reports, scenarios: suite.scenarios, specs: suite.specs, started: result.started, requests: requests)
        if ExitPolicy.nothingChecked(result.reports) { Console.error(ExitPolicy.nothingCheckedInScenarios) }
        if let status = ExitPolicy.status(of: result.reports) { throw ExitCode(status.rawValue) }
    }
}
