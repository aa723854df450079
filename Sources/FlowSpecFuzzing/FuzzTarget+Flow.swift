import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

extension FuzzTarget {
    /// The input as one YAML file given to `flowspec check`: loaded with positions, decoded as a flow, session or
    /// scenario, and every static check run (flows and sessions by the language, a scenario by its module against
    /// the file's own flows). Any outcome is fine — diagnostics or none — as long as it returns, and every
    /// diagnostic can be printed.
    static func flow(_ input: Data) {
        guard let text = FuzzInput.text(input) else { return }
        let loaded = LoadedFiles(sources: ["fuzz.yaml": text])
        var diagnostics = loaded.program.diagnostics
        for (file, root) in loaded.scenarioDocuments {
            _ = ScenarioDecoder.decode(root, file: file, specs: loaded.program, &diagnostics)
        }
        for diagnostic in diagnostics.sorted { _ = diagnostic.description }
    }
}
