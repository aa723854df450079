import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecScenarios

/// Inline flow and scenario files (file name → YAML), made into a program and decoded as `flowspec check` does:
/// what the scenario tests share instead of each writing the decode-then-run steps again.
enum InlineSuite {
    /// The program, its first scenario, and every error message (loading, checking, decoding), sorted.
    static func decode(_ files: [String: String]) -> (SpecSet, Scenario?, [String]) {
        let loaded = LoadedFiles(sources: files)
        let specs = loaded.program
        var diagnostics = specs.diagnostics
        let decoded = loaded.scenarioDocuments.compactMap {
            ScenarioDecoder.decode($0.root, file: $0.file, specs: specs, &diagnostics)
        }
        return (specs, decoded.first, diagnostics.sorted.filter { $0.severity == .error }.map(\.description))
    }

    /// The program and its first scenario; a fixture with an error fails the test.
    static func load(_ files: [String: String]) throws -> (SpecSet, Scenario) {
        let (specs, scenario, errors) = decode(files)
        #expect(errors.isEmpty, "\(errors)")
        return (specs, try #require(scenario))
    }

    /// Runs the first scenario scripted, one job.
    static func run(_ files: [String: String]) async throws -> ScenarioReport {
        let (specs, scenario) = try load(files)
        return await ScenarioRunner(specs: specs, jobs: 1).run(scenario)
    }
}
