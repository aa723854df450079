import ArgumentParser
import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

/// Finds the one flow a command draws or walks, given as a name (`repairminder.me`) or as a flow file
/// (`flows/repairminder/me.yaml`). Flows are loaded the way `run` and `exec` load them: `--flows DIR`, else
/// the nearest `flows/` folder (at or above the file, or the current folder for a name).
/// Problems are printed and end the command with exit 2.
struct FlowLocator {
    var flowsFolder: String?
    /// Refuse when any file of the project has errors, not only the flow's own: scenario skeletons are
    /// checked against the whole project, so they are only worth writing into one that loads.
    var wholeProjectMustLoad = false

    struct Located {
        var flow: Flow
        var specs: SpecSet
    }

    func locate(_ argument: String) throws -> Located {
        looksLikePath(argument) ? try locateFile(argument) : try locateName(argument)
    }

    private func looksLikePath(_ argument: String) -> Bool {
        argument.hasSuffix(".yaml") || argument.hasSuffix(".yml") || argument.contains("/")
            || FileManager.default.fileExists(atPath: argument)
    }

    private func locateName(_ name: String) throws -> Located {
        let folder =
            flowsFolder ?? SuiteLoader.flowsFolder(for: [FileManager.default.currentDirectoryPath], explicit: nil)
        let suite = SuiteLoader.load(paths: [], flowsFolder: folder)
        guard let flow = suite.specs.flows[name] else {
            let known = suite.specs.flows.keys.sorted()
            let suggestion = Suggestion.didYouMean(name, in: known)
            Console.error("error: unknown flow `\(name.abbreviated(to: 200))`" + (suggestion.map { "; \($0)" } ?? ""))
            if suggestion == nil, suite.diagnostics.hasErrors {
                // The flow may be in a file that did not load: show why.
                for diagnostic in suite.diagnostics.sorted where diagnostic.severity == .error {
                    Console.error(diagnostic.description)
                }
                Console.error(
                    "some flow files have errors (above); `\(name.abbreviated(to: 200))` may be in one of them")
            } else if known.isEmpty {
                Console.error("no flows loaded: run from a project with a flows/ folder, or pass --flows DIR")
            }
            throw ExitCode(Exit.invalid)
        }
        return try checked(flow, suite)
    }

    private func locateFile(_ path: String) throws -> Located {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            Console.error(
                "error: no such flow file \(path)"
                    + (Self.nearbyFile(path).map { "; did you mean `\($0)`?" }
                        ?? "; give a flow file or a flow name such as repairminder.me"))
            throw ExitCode(Exit.invalid)
        }
        let suite = SuiteLoader.load(paths: [path], flowsFolder: flowsFolder)
        let wanted = Self.canonical(path)
        guard let flow = suite.specs.flows.values.first(where: { Self.canonical($0.file) == wanted }) else {
            let errors = suite.diagnostics.sorted.filter {
                $0.severity == .error && Self.canonical($0.location.file) == wanted
            }
            if errors.isEmpty {
                Console.error("error: \(path) is not a flow file: it has no top-level `flow:` key")
            } else {
                for diagnostic in errors { Console.error(diagnostic.description) }
                Console.error(
                    "error: \(path) did not load: fix the errors above (flowspec check \(path) shows them too)")
            }
            throw ExitCode(Exit.invalid)
        }
        return try checked(flow, suite)
    }

    /// A flow whose own file has errors is not drawn: the diagram would show a machine that cannot run.
    /// Errors in other files (another flow, a scenario) do not stop it.
    private func checked(_ flow: Flow, _ suite: Suite) throws -> Located {
        if wholeProjectMustLoad, suite.diagnostics.hasErrors {
            for diagnostic in suite.diagnostics.sorted where diagnostic.severity == .error {
                Console.error(diagnostic.description)
            }
            Console.error("fix the errors above first (flowspec check shows them too)")
            throw ExitCode(Exit.invalid)
        }
        let file = Self.canonical(flow.file)
        let errors = suite.diagnostics.sorted.filter {
            $0.severity == .error && Self.canonical($0.location.file) == file
        }
        if !errors.isEmpty {
            for diagnostic in errors { Console.error(diagnostic.description) }
            Console.error(
                "error: flow `\(flow.name)` has errors (above); fix them first (flowspec check \(flow.file) shows them too)"
            )
            throw ExitCode(Exit.invalid)
        }
        return Located(flow: flow, specs: suite.specs)
    }

    /// The YAML file in the same folder whose name is closest to the one given (a typo in a path).
    static func nearbyFile(_ path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        let candidates = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
        guard let name = Suggestion.closest(to: url.lastPathComponent, in: candidates) else { return nil }
        let prefix = (path as NSString).deletingLastPathComponent
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
