import ArgumentParser
import FlowSpecDiagrams
import FlowSpecLanguage
import FlowSpecReports
import FlowSpecRuntime
import Foundation

struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract:
            "Draw a flow's state machine as Mermaid or Graphviz DOT, optionally highlighting the paths a report took.",
        discussion: """
            Mermaid output is a flowchart GitHub renders inline; DOT renders with `dot -Tsvg`. With --trace, the states \
            and edges the report's runs of this flow took are highlighted and each taken edge says how often (×N).
            Exit 0 drawn · 2 unknown flow, a flow with errors, or an unreadable report.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case mermaid, dot
    }

    @Argument(help: "The flow: a name such as repairminder.staff-password-2fa, or a flow file.")
    var flow: String

    @Option(help: "The diagram language.")
    var format: Format = .mermaid

    @Option(
        help: ArgumentHelp(
            "A JSON report (flowspec run --report json=FILE) whose runs of this flow to highlight.",
            valueName: "report.json"))
    var trace: String?

    @Option(
        help: "With --trace: only this scenario's runs (every repetition of it); default: all runs of the flow, merged."
    )
    var scenario: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the diagram to FILE (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var flowsFolder: FlowsFolderOption

    func validate() throws {
        if scenario != nil, trace == nil {
            throw ValidationError("--scenario picks runs from a report: give --trace REPORT.json too")
        }
    }

    func run() async throws {
        let located = try FlowLocator(flowsFolder: flowsFolder.flows).locate(flow)
        let compiled = located.specs.compiled[located.flow.name] ?? CompiledFlow(located.flow)
        let highlight = try trace.map { try loadHighlight($0, compiled) } ?? .none
        let text: String
        switch format {
        case .mermaid: text = MermaidDiagram.render(compiled, highlight: highlight)
        case .dot: text = DOTDiagram.render(compiled, highlight: highlight)
        }
        try write(text)
    }

    private func loadHighlight(_ path: String, _ flow: CompiledFlow) throws -> RunHighlight {
        guard let data = FileManager.default.contents(atPath: path) else {
            Console.error(
                "error: --trace: cannot read \(path); pass a report written by `flowspec run --report json=FILE`")
            throw ExitCode(Exit.invalid)
        }
        let file: TraceFile
        // The report's runs of this flow, resolved against it as it is now.
        switch TraceFile.parse(data, flows: [flow.name: flow]) {
        case .success(let parsed): file = parsed
        case .failure(let problem):
            Console.error("error: --trace \(path): \(problem.description)")
            throw ExitCode(Exit.invalid)
        }
        let name = flow.name
        if let scenario, !file.scenarioNames.contains(scenario) {
            let hint = Suggestion.didYouMean(scenario, in: file.scenarioNames).map { "; \($0)" } ?? ""
            Console.error("error: --scenario: \(path) has no scenario named \"\(scenario)\"\(hint)")
            throw ExitCode(Exit.invalid)
        }
        let runs = file.runs(of: name, scenario: scenario)
        if runs.isEmpty {
            let within = scenario.map { " in scenario \"\($0)\"" } ?? ""
            Console.error("warning: \(path) has no run of flow `\(name)`\(within); drawing the graph without a path")
            return .none
        }
        if let unmatched = file.unmatched[name], !unmatched.isEmpty {
            Console.error(
                "warning: \(path) was written for another version of `\(name)`; not highlighted: \(unmatched.joined(separator: "; "))"
            )
        }
        return RunHighlight(runs: runs)
    }

    private func write(_ text: String) throws {
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let folder = (output as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !folder.isEmpty,
            !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            Console.error("error: -o: the folder \(folder) does not exist (for \(output)); create it first")
            throw ExitCode(Exit.invalid)
        }
        do { try OutputFile.write(Data(text.utf8), to: output) } catch {
            Console.error("error: -o: could not write \(output): \(error.localizedDescription)")
            throw ExitCode(Exit.infrastructure)
        }
    }
}
