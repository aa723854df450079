import Testing

@testable import FlowSpecLanguage

/// Files hold a program and, beside it, scenario and probe documents; the program keeps only flows and sessions.
@Suite(.timeLimit(.minutes(5))) struct LoadedFilesTests {
    static let flow = """
        flow: demo.login
        start: done
        states:
          done: { end: signed_in, success: true }
        """

    @Test func scenarioAndProbeDocumentsStayBesideTheProgramInFileOrder() throws {
        let loaded = LoadedFiles(sources: [
            "flows/demo/login.yaml": Self.flow,
            "scenarios/b.yaml": "scenario: second\nflow: demo.login\n",
            "scenarios/a.yaml": "scenario: first\nflow: demo.login\n",
            "flows/demo/probe.yaml": "probe: demo.session\n",
            "scenarios/broken.yaml": "scenario: [unclosed\n",
        ])
        #expect(loaded.scenarioDocuments.map(\.file) == ["scenarios/a.yaml", "scenarios/b.yaml"])
        #expect(loaded.probeDocuments.map(\.file) == ["flows/demo/probe.yaml"])
        #expect(Array(loaded.program.flows.keys) == ["demo.login"])
        // Every file is part of the run, and a file that does not parse is the program's error, at its place.
        #expect(loaded.program.files.count == 5)
        let errors = loaded.program.diagnostics.errors.map(\.location.file)
        #expect(errors == ["scenarios/broken.yaml"])
        // The program alone, as `SpecSet(sources:)` gives it, is the same program.
        #expect(SpecSet(sources: ["flows/demo/login.yaml": Self.flow]).flows.keys.sorted() == ["demo.login"])
    }

    @Test func addingAScenarioKeepsItBesideAndAddingAFlowChecksTheProgramAgain() throws {
        let base = LoadedFiles(sources: ["flows/demo/login.yaml": Self.flow])
        let scenario = try YAMLLoader.load(text: "scenario: s\nflow: demo.login\n", file: "scenarios/s.yaml").get()
        let withScenario = base.adding(scenario, file: "scenarios/s.yaml")
        #expect(withScenario.scenarioDocuments.map(\.file) == ["scenarios/s.yaml"])
        #expect(withScenario.program.flows.count == 1 && withScenario.program.compiledFlows.count == 1)

        let broken = try YAMLLoader.load(
            text: "flow: demo.other\nstart: nowhere\nstates:\n  done: { end: x, success: true }\n",
            file: "flows/demo/other.yaml"
        ).get()
        let withFlow = withScenario.adding(broken, file: "flows/demo/other.yaml")
        #expect(withFlow.scenarioDocuments.count == 1)
        #expect(withFlow.program.compiledFlows.map(\.name) == ["demo.login", "demo.other"])
        #expect(withFlow.program.diagnostics.errors.contains { $0.location.file == "flows/demo/other.yaml" })
    }
}
