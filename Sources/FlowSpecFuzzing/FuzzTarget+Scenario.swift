import FlowSpecLanguage
import FlowSpecLoading
import FlowSpecScenarios
import Foundation

extension FuzzTarget {
    /// The shipped Traveling flows and sessions, loaded and checked once: the fixed world a fuzzed scenario (or
    /// session) file is checked against. Immutable after loading.
    static let shippedTraveling: Result<LoadedFiles, InvariantBroken> = {
        let folder = FuzzInput.repositoryPath("flows/traveling")
        let loaded = ProgramLoader.load(paths: [folder])
        guard !loaded.program.flows.isEmpty, loaded.program.diagnostics.sorted.allSatisfy({ $0.severity != .error })
        else {
            return .failure(
                InvariantBroken("the shipped flows in \(folder) did not load cleanly (set FLOWSPEC_FUZZ_ROOT)"))
        }
        return .success(loaded)
    }()

    /// The input as a scenario or session file beside the shipped Traveling flows, as `flowspec check flows
    /// scenarios` sees it: decoded and checked (a scenario against the flows it names, a session with every check).
    static func scenario(_ input: Data) throws(InvariantBroken) {
        let shipped = try shippedTraveling.get()
        guard let text = FuzzInput.text(input) else { return }
        let loaded: LoadedFiles
        switch YAMLLoader.load(text: text, file: "scenarios/fuzz.yaml") {
        case .failure(let diagnostic):
            _ = diagnostic.description
            return
        case .success(let root):
            // A session (or flow) added to the program is checked with everything else, as `check` would.
            loaded = shipped.adding(root, file: "scenarios/fuzz.yaml")
        }
        var diagnostics = loaded.program.diagnostics
        for (file, root) in loaded.scenarioDocuments {
            _ = ScenarioDecoder.decode(root, file: file, specs: loaded.program, &diagnostics)
        }
        for diagnostic in diagnostics.sorted { _ = diagnostic.description }
    }
}
