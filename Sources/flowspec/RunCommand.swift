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

    @Option(help: "Run only scenarios whose name matches this regular expression.")
    var filter: String?

    @OptionGroup var variables: VariableOptions
    @OptionGroup var http: HTTPClientOptions

    @Flag(name: .customLong("no-sandbox"), help: "Never start the embedded sandbox; live scenarios without a backend are skipped.")
    var noSandbox = false

    @Flag(help: "Print only failures and the summary.")
    var quiet = false

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let filter, RegexCache.compile(filter) == nil { throw ValidationError("--filter is not a valid regular expression: \(filter)") }
    }

    func run() async throws {
        let suite = SuiteLoader.load(paths: paths, flowsFolder: flows)
        let sorted = suite.diagnostics.sorted
        if suite.diagnostics.hasErrors {
            for diagnostic in sorted { Console.error(diagnostic.description) }
            Console.error("not running: fix the errors above (flowspec check shows them too)")
            throw ExitCode(Exit.invalid)
        }
        var scenarios = suite.scenarios.sorted { ($0.file, $0.name) < ($1.file, $1.name) }
        if let filter, let regex = RegexCache.compile(filter) {
            scenarios = scenarios.filter { regex.firstMatch(in: $0.name) }
        }
        if scenarios.isEmpty {
            Console.error("no scenarios found in \(paths.joined(separator: " "))\(filter.map { " matching /\($0)/" } ?? "")")
            throw ExitCode(Exit.invalid)
        }
        var runVars = try variables.resolved()
        let backend = try await LiveBackend.prepare(needed: scenarios.contains(where: \.live), vars: &runVars,
                                                    embedded: !noSandbox, options: http.liveOptions())
        let reporter = ConsoleReporter(color: Console.useColor)
        let quiet = self.quiet
        let runner = ScenarioRunner(specs: suite.specs, jobs: jobs, vars: runVars, live: backend?.adapter)
        let printer = OrderedPrinter(count: scenarios.count)
        let reports = await runner.run(scenarios) { index, report in
            await printer.finished(index, quiet && report.status == .passed ? nil : reporter.line(for: report))
        }
        await backend?.stop()
        print(ConsoleReporter.summary(reports))
        // A broken promise (1) outranks a backend that did not answer (3): it is the regression signal.
        if reports.contains(where: { $0.status == .failed && !$0.infrastructureFailure }) { throw ExitCode(Exit.failed) }
        if reports.contains(where: { $0.infrastructureFailure }) { throw ExitCode(Exit.infrastructure) }
    }
}

/// Prints reports in scenario order as soon as every earlier one is done, so output is deterministic
/// whatever order concurrent scenarios finish in.
actor OrderedPrinter {
    private var pending: [Int: String?] = [:]
    private var next = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func finished(_ index: Int, _ text: String?) {
        pending[index] = .some(text)
        while let entry = pending[next] {
            if let text = entry { print(text) }
            pending[next] = nil
            next += 1
        }
    }
}
