import ArgumentParser
import FlowSpecLanguage
import FlowSpecReports
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

/// What a run prints and writes: console detail, `--report` files, coverage.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print only failures and the summary.")
    var quiet = false

    @Flag(help: "Print every request and response of every scenario (secrets masked).")
    var verbose = false

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Write a report: \(ReportFormats.all.map { $0.name + ($0.requiresFile == nil ? "[=FILE]" : "=FILE") }.joined(separator: ", ")) (repeatable).",
            discussion: "Reports without a file go to standard output; the console lines then go to standard error."),
        transform: { text in try ReportRequest.parse(text).mapError { ValidationError($0.description) }.get() })
    var reports: [ReportRequest] = []

    @Flag(
        help: "After the summary, print flow coverage: states, transitions and guard outcomes the scenarios exercised.")
    var coverage = false

    @Flag(
        name: .customLong("all-flows"),
        help: "Coverage covers every flow in the flows folder, not only those the scenarios run.")
    var allFlows = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other; pick one") }
        if let conflict = ReportRequest.conflict(in: reports) { throw ValidationError(conflict) }
    }

    /// Where console lines go: standard error when a report owns standard output.
    var consoleStream: ConsoleStream {
        reports.contains { $0.path == nil } ? .standardError : .standardOutput
    }

    /// What the run must record: what the reports need, and everything for --verbose and --coverage.
    var needs: ReportNeeds {
        var needs = ReportRequest.needs(of: reports)
        if verbose { needs.insert(.exchanges) }
        if coverage { needs.formUnion([.traces, .coverage]) }
        return needs
    }

    var consoleReporter: ConsoleReporter { ConsoleReporter(color: consoleStream.useColor, verbose: verbose) }

    /// Checks every report file can be written before any scenario runs.
    func prepare() throws -> [ReportRequest] {
        if let problem = ReportRequest.missingFolder(in: reports) {
            Console.error(problem)
            throw ExitCode(Exit.invalid)
        }
        return reports
    }

    /// Writes every report and the coverage table. `scenarios` are all those found under the paths, before
    /// selection: they set the coverage scope, the same for every shard.
    func write(
        _ reports: [ScenarioReport], scenarios: [Scenario], specs: SpecSet, started: Date, requests: [ReportRequest]
    ) throws {
        var record = RunRecord(
            reports: reports, specs: specs, startedAt: started,
            durationSeconds: Date().timeIntervalSince(started), toolVersion: FlowSpecCommand.configuration.version)
        // Coverage walks every trace of every report: only when asked for.
        if needs.contains(.coverage) {
            record.coverage = FlowCoverage(record).filtered(
                CoverageScope.flows(of: scenarios, in: specs, allFlows: allFlows).contains)
        }
        if coverage, let flowCoverage = record.coverage { consoleStream.print(CoverageText.render(flowCoverage)) }
        for request in requests {
            do { try ReportOutput.write(request.format.render(record), for: request) } catch {
                Console.error(error.description)
                throw ExitCode(ExitPolicy.reportNotWritten.rawValue)
            }
        }
    }
}
