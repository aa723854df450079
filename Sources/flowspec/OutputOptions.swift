import ArgumentParser
import Foundation
import FlowSpecLanguage
import FlowSpecReports
import FlowSpecRuntime
import FlowSpecScenarios

/// What a run prints and writes: console detail, `--report` files, coverage.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print only failures and the summary.")
    var quiet = false

    @Flag(help: "Print every request and response of every scenario (secrets masked).")
    var verbose = false

    @Option(name: .customLong("report"), help: ArgumentHelp(
        "Write a report: junit=FILE, json=FILE, tap[=FILE], html=FILE, coverage=FILE (repeatable).",
        discussion: "Reports without a file go to standard output; the console lines then go to standard error."),
        transform: { text in try ReportRequest.parse(text).mapError { ValidationError($0.description) }.get() })
    var reports: [ReportRequest] = []

    @Flag(help: "After the summary, print flow coverage: states, transitions and guard outcomes the scenarios exercised.")
    var coverage = false

    @Flag(name: .customLong("all-flows"), help: "Coverage covers every flow in the flows folder, not only those the scenarios run.")
    var allFlows = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other; pick one") }
        let requests = reports
        if requests.filter({ $0.path == nil }).count > 1 {
            throw ValidationError("only one --report can go to standard output; give the others a file (e.g. --report json=report.json)")
        }
        var seen = Set<String>()
        for path in requests.compactMap(\.path) where !seen.insert(path).inserted {
            throw ValidationError("two reports would write \(path); give each its own file")
        }
    }

    /// Where console lines go: standard error when a report owns standard output.
    var consoleStream: ConsoleStream {
        reports.contains { $0.path == nil } ? .standardError : .standardOutput
    }

    /// Whether passed scenarios' exchanges are shown anywhere (failed ones always keep theirs).
    var needsExchanges: Bool {
        verbose || reports.contains { $0.kind == .json || $0.kind == .html }
    }

    /// Whether runs' traces (states, edges, false guards) are shown anywhere: coverage and the JSON and HTML reports.
    var needsTraces: Bool {
        coverage || reports.contains { $0.kind == .json || $0.kind == .html || $0.kind == .coverage }
    }

    var consoleReporter: ConsoleReporter { ConsoleReporter(color: consoleStream.useColor, verbose: verbose) }

    /// Checks every report file can be written before any scenario runs: a typo in a folder name should
    /// not cost a 20-minute run.
    func prepare() throws -> [ReportRequest] {
        for path in reports.compactMap(\.path) {
            let folder = (path as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            if !folder.isEmpty, !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue) {
                Console.error("--report: the folder \(folder) does not exist (for \(path)); create it first")
                throw ExitCode(Exit.invalid)
            }
        }
        return reports
    }

    /// Writes every report (atomically: a reader never sees half a file) and the coverage table.
    /// `scenarios` are all those found under the paths, before selection: they set the coverage scope, the
    /// same for every shard.
    func write(_ reports: [ScenarioReport], scenarios: [Scenario], specs: SpecSet, started: Date, requests: [ReportRequest]) throws {
        let record = RunRecord(reports: reports, specs: specs, startedAt: started,
                               durationSeconds: Date().timeIntervalSince(started), toolVersion: FlowSpecCommand.configuration.version)
        // Coverage walks every trace of every report: only when asked for.
        let wantsCoverage = coverage || requests.contains { $0.kind == .coverage }
        let flowCoverage = wantsCoverage
            ? FlowCoverage(record).filtered(CoverageScope.flows(of: scenarios, in: specs, allFlows: allFlows).contains) : nil
        if coverage, let flowCoverage { consoleStream.print(CoverageText.render(flowCoverage)) }
        for request in requests {
            let text: String
            switch request.kind {
            case .junit: text = JUnitReport.render(record)
            case .json: text = JSONReport.render(record)
            case .tap: text = TAPReport.render(record)
            case .html: text = HTMLReport.render(record)
            case .coverage: text = flowCoverage.map(CoverageJSON.render) ?? ""
            }
            guard let path = request.path else {
                FileHandle.standardOutput.write(Data(text.utf8))
                continue
            }
            do { try OutputFile.write(Data(text.utf8), to: path) } catch {
                Console.error("--report \(request.kind.rawValue): could not write \(path): \(error.localizedDescription)")
                throw ExitCode(Exit.infrastructure)
            }
        }
    }
}
