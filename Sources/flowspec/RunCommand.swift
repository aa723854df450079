import ArgumentParser
import Foundation
import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecSandbox
import FlowSpecScenarios

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios and report pass or fail for each.",
        discussion: "Ends with the line `N passed, N failed[, N skipped]`. Exit 0 all passed, 1 a scenario failed, 2 invalid spec or usage, 3 infrastructure error."
    )

    @Argument(help: "Scenario files or folders.")
    var paths: [String]

    @Option(help: "The flows folder (default: the nearest flows/ folder).")
    var flows: String?

    @Option(help: "How many scenarios run at once (default: number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var selection: SelectionOptions
    @OptionGroup var execution: ExecutionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var variables: VariableOptions
    @OptionGroup var http: HTTPClientOptions

    @Flag(name: .customLong("no-sandbox"), help: "Never start the embedded sandbox; live scenarios without a backend are skipped.")
    var noSandbox = false

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let suite = SuiteLoader.load(paths: paths, flowsFolder: flows)
        if suite.diagnostics.hasErrors {
            for diagnostic in suite.diagnostics.sorted { Console.error(diagnostic.description) }
            Console.error("not running: fix the errors above (flowspec check shows them too)")
            throw ExitCode(Exit.invalid)
        }
        let plan = selection.plan(suite.scenarios)
        if selection.listOnly {
            selection.list(plan)
            return
        }
        if plan.isEmpty {
            Console.error("no scenarios found in \(paths.joined(separator: " "))\(selection.describe)")
            throw ExitCode(Exit.invalid)
        }
        let reporters = try output.prepare()
        var runVars = try variables.resolved()
        let backend = try await LiveBackend.prepare(needed: plan.contains(where: \.scenario.live), vars: &runVars,
                                                    embedded: !noSandbox, options: http.liveOptions())
        var runner = ScenarioRunner(specs: suite.specs, jobs: jobs, vars: runVars, live: backend?.adapter)
        execution.configure(&runner)
        let started = Date()
        let progress = ConsoleProgress(total: plan.count, reporter: output.consoleReporter, quiet: output.quiet, stream: output.consoleStream)
        await progress.start()
        let reports = await runner.run(plan.map(\.scenario)) { index, report in
            var report = report
            report.repetition = plan[index].repetition
            await progress.finished(index, report)
        }.enumerated().map { index, report in
            var report = report
            report.repetition = plan[index].repetition
            return report
        }
        await progress.finish()
        await backend?.stop()
        output.consoleStream.print(ConsoleReporter.summary(reports))
        try output.write(reports, specs: suite.specs, started: started, requests: reporters)
        // A broken promise (1) outranks a backend that did not answer (3): it is the regression signal.
        if reports.contains(where: { $0.status == .failed && !$0.infrastructureFailure }) { throw ExitCode(Exit.failed) }
        if reports.contains(where: { $0.infrastructureFailure }) { throw ExitCode(Exit.infrastructure) }
    }
}
