import ArgumentParser
import Foundation
import FlowSpecGraph
import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios

struct PathsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "List the paths through a flow and write scenario skeletons for them.",
        discussion: """
        Lists the shortest path to every end state, then for every edge not yet on a listed path the shortest path \
        through it to the nearest end state (docs/paths.md). --scaffold DIR writes one scripted scenario per path, \
        with TODOs where a value could not be derived. Exit 0 ok · 2 bad usage, unknown flow, invalid spec or existing files.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "The flow: its name (repairminder.staff-password-2fa) or its file (flows/repairminder/me.yaml).")
    var flow: String

    @Option(help: "The flows folder (default: the nearest flows/ folder).")
    var flows: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(help: "Write one scripted-scenario skeleton per path into this folder (created if missing).")
    var scaffold: String?

    @Flag(help: "With --scaffold: overwrite files that already exist.")
    var force = false

    func run() async throws {
        let (target, specs) = try locate()
        let report = PathFinder.report(FlowGraph(target))
        switch format {
        case .text: print(PathsText.render(report, flow: target), terminator: "")
        case .json: print(PathsJSON.render(report, flow: target), terminator: "")
        }
        guard let scaffold else { return }
        try write(ScenarioScaffold.files(report, flow: target, specs: specs), to: scaffold)
    }

    /// The flow by name (flows found as `exec` finds them) or by file (its project's flows folder).
    private func locate() throws -> (Flow, SpecSet) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        let isFile = (flow.hasSuffix(".yaml") || flow.hasSuffix(".yml")) && fm.fileExists(atPath: flow, isDirectory: &isDirectory) && !isDirectory.boolValue
        let suite = isFile
            ? SuiteLoader.load(paths: [flow], flowsFolder: flows)
            : SuiteLoader.load(paths: [], flowsFolder: flows ?? SuiteLoader.flowsFolder(for: [fm.currentDirectoryPath], explicit: nil))
        if suite.diagnostics.hasErrors {
            for diagnostic in suite.diagnostics.sorted where diagnostic.severity == .error { Console.error(diagnostic.description) }
            Console.error("cannot list paths: fix the errors above (flowspec check shows them too)")
            throw ExitCode(Exit.invalid)
        }
        if isFile {
            let wanted = URL(fileURLWithPath: flow).standardizedFileURL.resolvingSymlinksInPath().path
            let match = suite.specs.flows.values.first {
                URL(fileURLWithPath: $0.file).standardizedFileURL.resolvingSymlinksInPath().path == wanted
            }
            guard let match else {
                Console.error("error: \(flow) holds no flow (a flow file starts with `flow:`)")
                throw ExitCode(Exit.invalid)
            }
            return (match, suite.specs)
        }
        guard let match = suite.specs.flows[flow] else {
            let known = suite.specs.flows.keys
            Console.error("error: unknown flow `\(flow)`" + (Suggestion.closest(to: flow, in: known).map { "; did you mean `\($0)`?" } ?? ""))
            if known.isEmpty { Console.error("no flows loaded: run from a project with a flows/ folder, or pass --flows DIR") }
            throw ExitCode(Exit.invalid)
        }
        return (match, suite.specs)
    }

    /// Creates the folder, refuses to overwrite anything unless --force, writes each file atomically.
    private func write(_ files: [ScaffoldFile], to folder: String) throws {
        let fm = FileManager.default
        let directory = URL(fileURLWithPath: folder)
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            Console.error("error: cannot create the folder \(folder): \(error.localizedDescription)")
            throw ExitCode(Exit.invalid)
        }
        let clashes = files.map { directory.appendingPathComponent($0.fileName).path }.filter { fm.fileExists(atPath: $0) }
        if !clashes.isEmpty, !force {
            Console.error("error: not overwriting \(clashes.count) existing file\(clashes.count == 1 ? "" : "s"):")
            for path in clashes { Console.error("  \(path)") }
            Console.error("hint: scaffold into another folder, delete them, or pass --force to overwrite")
            throw ExitCode(Exit.invalid)
        }
        var complete = 0
        for file in files {
            let path = directory.appendingPathComponent(file.fileName).path
            do {
                try AtomicFile.write(Data(file.yaml.utf8), to: path)
            } catch {
                Console.error("error: cannot write \(path): \(error.localizedDescription)")
                throw ExitCode(Exit.invalid)
            }
            if file.openTodos.isEmpty { complete += 1 }
        }
        Console.error("wrote \(files.count) scenario skeleton\(files.count == 1 ? "" : "s") to \(folder): "
                      + "\(complete) derived completely, \(files.count - complete) with TODOs to fill in")
    }
}
