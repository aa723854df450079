import FlowSpecLanguage
import FlowSpecLoading
import FlowSpecScenarios
import FuzzSupport

/// The shipped Traveling flows and sessions, loaded and checked once: the fixed world a fuzzed scenario (or
/// session) file is checked against. Immutable after loading.
let shipped: SpecSet = {
    let specs = ProgramLoader.load(paths: [Fuzz.repositoryPath("flows/traveling")])
    guard !specs.flows.isEmpty, specs.diagnostics.sorted.allSatisfy({ $0.severity != .error }) else {
        Fuzz.fail(
            "the shipped flows in \(Fuzz.repositoryPath("flows/traveling")) did not load cleanly (set FLOWSPEC_FUZZ_ROOT)"
        )
    }
    return specs
}()

/// The input as a scenario or session file beside the shipped Traveling flows, as `flowspec check flows scenarios`
/// sees it: decoded and checked (a scenario against the flows it names, a session with every check).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = Fuzz.text(data, size) else { return 0 }
    let specs: SpecSet
    switch YAMLLoader.load(text: text, file: "scenarios/fuzz.yaml") {
    case .failure(let diagnostic):
        _ = diagnostic.description
        return 0
    case .success(let root):
        // A session (or flow) added to the program is checked with everything else, as `check` would.
        specs = shipped.adding(root, file: "scenarios/fuzz.yaml")
    }
    var diagnostics = specs.diagnostics
    for (file, root) in specs.scenarioDocuments {
        _ = ScenarioDecoder.decode(root, file: file, specs: specs, &diagnostics)
    }
    for diagnostic in diagnostics.sorted { _ = diagnostic.description }
    return 0
}
