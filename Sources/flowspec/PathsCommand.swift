import ArgumentParser
import FlowSpecDiagrams
import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScaffold
import FlowSpecScenarios
import Foundation

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

    @OptionGroup var flowsFolder: FlowsFolderOption

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(help: "Write one scripted-scenario skeleton per path into this folder (created if missing).")
    var scaffold: String?

    @Flag(help: "With --scaffold: overwrite files that already exist.")
    var force = false

    func validate() throws {
        // A lone --force reads as "overwrite the scaffold" but would write nothing: say so rather than ignore it.
        if force, scaffold == nil {
            throw ValidationError("--force only applies with --scaffold DIR; add --scaffold DIR or drop --force")
        }
    }

    func run() async throws {
        let located = try FlowLocator(flowsFolder: flowsFolder.flows, wholeProjectMustLoad: true).locate(flow)
        let (target, specs) = (located.flow, located.specs)
        let compiled = specs.compiled[target.name] ?? CompiledFlow(target)
        let report = PathFinder.report(compiled)
        switch format {
        case .text: print(PathsText.render(report, flow: compiled), terminator: "")
        case .json: print(PathsJSON.render(report, flow: compiled), terminator: "")
        }
        guard let scaffold else { return }
        try write(ScenarioScaffold.files(report, flow: target, specs: specs), to: scaffold)
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
        let clashes = files.map { directory.appendingPathComponent($0.fileName).path }.filter {
            fm.fileExists(atPath: $0)
        }
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
        Console.error(
            "wrote \(files.count) scenario skeleton\(files.count == 1 ? "" : "s") to \(folder): "
                + "\(complete) derived completely, \(files.count - complete) with TODOs to fill in")
    }
}
