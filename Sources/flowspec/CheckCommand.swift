import ArgumentParser
import FlowSpecLanguage
import FlowSpecProbe
import FlowSpecScenarios
import Foundation

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check flows, sessions, scenarios and probe files without running anything.",
        discussion:
            "Prints every problem as path:line:col: error|warning: message. Exit 0 when there are no errors, 2 otherwise."
    )

    @Argument(help: "Files or folders to check (flows, sessions, scenarios, probe files).")
    var paths: [String]

    @Option(help: "The flows folder that scenarios refer to (default: the nearest flows/ folder).")
    var flows: String?

    func run() async throws {
        let suite = SuiteLoader.load(paths: paths, flowsFolder: flows)
        var diagnostics = suite.diagnostics
        _ = ProbeLoader.declarations(in: suite, &diagnostics)
        let sorted = diagnostics.sorted
        for diagnostic in sorted { print(diagnostic.description) }
        let errors = sorted.filter { $0.severity == .error }.count
        let warnings = sorted.count - errors
        let summary =
            "checked \(suite.fileCount) file\(suite.fileCount == 1 ? "" : "s"): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        print(summary)
        if errors > 0 { throw ExitCode(Exit.invalid) }
    }
}
