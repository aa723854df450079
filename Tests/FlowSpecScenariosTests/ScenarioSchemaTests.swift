import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecScenarios

/// The scenario schema (built from `ScenarioFormat`) names exactly the keys `ScenarioDecoder` accepts, and what
/// it calls a mistake the decoder rejects too. The schema's validation tests are in FlowSpecLanguageTests.
@Suite(.timeLimit(.minutes(5))) struct ScenarioSchemaTests {
    let definitions = ScenarioSchema.document["definitions"]

    func keys(_ definition: String) -> Set<String> {
        Set(definitions[definition]["properties"].objectValue.map { Array($0.keys) } ?? [])
    }

    @Test func theSchemaKeysAreTheDecoders() {
        #expect(keys("scenarioFile") == Set(ScenarioDecoder.topKeys))
        #expect(keys("expect") == Set(ScenarioDecoder.expectKeys))
        let stepKeys = ["runStep", "waitStep", "relaunchStep", "setStoreStep", "commandStep"].reduce(
            into: Set<String>()
        ) { $0.formUnion(keys($1)) }
        #expect(stepKeys == Set(ScenarioDecoder.stepKeys))
        #expect(keys("exchange") == ["request", "response", "times", "concurrent"])
        #expect(keys("exchangeRequest") == Set(ScenarioFormat.exchangeRequestKeys))
        #expect(keys("exchangeResponse") == Set(ScenarioFormat.exchangeResponseKeys))
        #expect(keys("requestCheck") == Set(ScenarioFormat.requestCheckKeys))
        #expect(ScenarioFormat.exchangeResponseKeys == ["status", "headers", "json", "body", "fail"])
    }

    @Test func keysPrintAsTheyAreWrittenInYAML() {
        // The scenario generator interpolates keys into YAML: a key must print its YAML spelling, not its case name.
        #expect("\(ScenarioFormat.Top.exchangeOrder)" == "exchange_order")
        #expect("\(ScenarioFormat.Expect.storePresent): x" == "store_present: x")
        #expect(ScenarioFormat.Top.allCases.map(\.description) == ScenarioFormat.topKeys)
        #expect(ScenarioFormat.Expect.allCases.map(\.rawValue) == ScenarioFormat.expectKeys)
    }

    static let flow = """
        flow: demo.login
        start: login
        states:
          login:
            request: { method: POST, path: /login }
            on:
              - when: status == 200
                goto: done
          done: { end: authenticated, success: true }
        """

    static let scenario = """
        scenario: demo
        flow: demo.login
        exchanges:
          - request: { method: POST, path: /login }
            response: { status: 200 }
        expect: { outcome: authenticated }
        """

    static func diagnostics(_ text: String) -> Diagnostics {
        let specs = SpecSet(sources: ["flows/demo/login.yaml": flow])
        var d = Diagnostics()
        if case .success(let root) = YAMLLoader.load(text: text, file: "s.yaml") {
            _ = ScenarioDecoder.decode(root, file: "s.yaml", specs: specs, &d)
        } else {
            d.error(SourceLocation(file: "s.yaml", line: 1, column: 1), "not YAML")
        }
        return d
    }

    @Test func theBaseScenarioLoadsClean() {
        #expect(Self.diagnostics(Self.scenario).items.map(\.description) == [])
    }

    /// Mistakes the schema tests (SchemaScenarioTests) also reject.
    @Test(arguments: [
        ("expect: { outcome: authenticated }", "expect: { outcome: 5 }"),
        ("expect: { outcome: authenticated }", "expect: {}"),
        ("expect: { outcome: authenticated }", ""),
        ("flow: demo.login", "flow: demo.login\nsteps: [{ relaunch: true }]"),
        ("scenario: demo", "scenario: demo\nlive: true"),
        ("scenario: demo", "scenario: demo\nexchange_order: random"),
        ("scenario: demo", "scenario: demo\nstore: { access_token: a }"),
        ("status: 200", "status: 700"),
        ("response: { status: 200 }", "response: { fail: crash }"),
        ("response: { status: 200 }", "response: { body: x, json: {} }"),
        ("path: /login }\n    response", "path: /login?x=1 }\n    response"),
        ("expect: { outcome: authenticated }", "expect: { outcome: authenticated, store: { token: t } }"),
        ("expect: { outcome: authenticated }", "expected: { outcome: authenticated }"),
    ]) func theDecoderRejects(_ replace: String, _ with: String) {
        #expect(Self.scenario.contains(replace))
        #expect(Self.diagnostics(Self.scenario.replacingOccurrences(of: replace, with: with)).hasErrors)
    }
}
