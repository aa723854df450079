import ArgumentParser
import FlowSpecReports
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

struct CoverageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Run scenarios and show which states, transitions and guard outcomes of each flow they exercised.",
        discussion: """
            Lists what was never exercised by file:line:column. Exit 0, or 1 when transition coverage is under --min \
            or a scenario failed; 2 invalid spec or usage; 3 infrastructure error. With --from, merges coverage files \
            (from --report coverage=FILE on several shards) instead of running anything.
            """
    )

    @Argument(help: "Scenario files or folders (default: scenarios).")
    var paths: [String] = []

    @Option(
        name: .customLong("from"),
        help: "A coverage file to read instead of running scenarios (repeatable; they are merged).")
    var from: [String] = []

    @Option(help: "Fail (exit 1) when transition coverage is below this percentage.")
    var min: Double?

    @Option(help: "text (default) or json (the coverage file format).")
    var format: Format = .text

    @Option(name: [.customShort("o"), .customLong("output")], help: "Write to this file instead of standard output.")
    var output: String?

    @Flag(
        name: .customLong("all-flows"), help: "Cover every flow in the flows folder, not only those the scenarios run.")
    var allFlows = false

    @Flag(name: .customLong("no-guards"), help: "Do not list guards that were never false.")
    var noGuards = false

    @OptionGroup var suiteOptions: SuiteOptions

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    func validate() throws {
        if let min, !(0...100).contains(min) {
            throw ValidationError("--min is a percentage from 0 to 100, got \(min)")
        }
        if !from.isEmpty, !paths.isEmpty {
            throw ValidationError("give scenario paths or --from coverage files, not both")
        }
    }

    func run() async throws {
        let (coverage, scenarioExit) = from.isEmpty ? try await measure() : (try merged(), nil)
        let text =
            format == .json
            ? CoverageJSON.render(coverage) : CoverageText.render(coverage, showGuards: !noGuards) + "\n"
        if let output {
            do { try OutputFile.write(Data(text.utf8), to: output) } catch {
                Console.error("could not write \(output): \(error.localizedDescription)")
                throw ExitCode(Exit.infrastructure)
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        if let status = ExitPolicy.status(transitionPercent: coverage.transitionRatio.percent, minimum: min) {
            Console.error(
                "transition coverage \(coverage.transitionRatio.percentText) is below --min \(CoverageCommand.percent(min ?? 0))"
            )
            throw ExitCode(status.rawValue)
        }
        if let scenarioExit { throw ExitCode(scenarioExit) }
    }

    /// Runs the scenarios; the summary line goes to standard error so standard output is only coverage.
    func measure() async throws -> (FlowCoverage, Int32?) {
        let scenarioPaths = paths.isEmpty ? ["scenarios"] : paths
        let suite = try SuiteRun.load(paths: scenarioPaths, flows: suiteOptions.flowsFolder.flows)
        let selection = suiteOptions.selection
        let plan = try selection.plan(suite.scenarios)
        if plan.isEmpty {
            Console.error("no scenarios found in \(scenarioPaths.joined(separator: " "))\(selection.describe)")
            throw ExitCode(Exit.invalid)
        }
        let reporter = ConsoleReporter(color: ConsoleStream.standardError.useColor)
        let result = try await SuiteRun.execute(suite: suite, plan: plan, options: suiteOptions, recordExchanges: false)
        { _, report in
            // A failed scenario's coverage is suspect: say which, so the numbers are read with that in mind.
            if report.status == .failed { Console.error(reporter.line(for: report)) }
        }
        Console.error(ConsoleReporter.summary(result.reports))
        if ExitPolicy.nothingChecked(result.reports) { Console.error(ExitPolicy.nothingCheckedInScenarios) }
        let scope = CoverageScope.flows(of: suite.scenarios, in: suite.specs, allFlows: allFlows)
        return (
            FlowCoverage(specs: suite.specs, reports: result.reports).filtered(scope.contains),
            ExitPolicy.status(of: result.reports)?.rawValue
        )
    }

    func merged() throws -> FlowCoverage {
        var parts: [FlowCoverage] = []
        for file in from {
            guard let data = FileManager.default.contents(atPath: file) else {
                Console.error("--from \(file): no such file or not readable")
                throw ExitCode(Exit.invalid)
            }
            do { parts.append(try CoverageJSON.parse(String(decoding: data, as: UTF8.self), name: file)) } catch {
                Console.error(error.description)
                throw ExitCode(Exit.invalid)
            }
        }
        return FlowCoverage.merge(parts)
    }

    static func percent(_ value: Double) -> String { value == value.rounded() ? "\(Int(value))%" : "\(value)%" }
}
