import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecProbe
@testable import FlowSpecScenarios

/// A probe file's mistakes are located errors (file:line:column) with a hint, found before anything is sent.
@Suite struct ProbeDecoderTests {
    static let file = "flows/toy/session-probe.yaml"

    /// The toy's flows and a probe file whose first four lines are always the same, so a test knows the line of
    /// each promise it writes (`promises:` is line 5; the first promise line 6).
    static func decode(promises: String, logout: String = "toy.logout") throws -> (
        declarations: [ProbeDeclaration], errors: [Diagnostic]
    ) {
        let text = """
            probe: toy.session
            login: { flow: toy.login, inputs: \(ToyFlows.inputs(ToyAuthBackend.alice)) }
            protected: [toy.me]
            logout: \(logout)
            \(promises.isEmpty ? "" : "promises:\n" + promises)
            """
        let loaded = LoadedFiles(sources: ToyFlows.files.merging([Self.file: text], uniquingKeysWith: { $1 }))
        let specs = loaded.program
        var diagnostics = Diagnostics()
        let declarations = ProbeLoader.declarations(
            in: Suite(
                specs: specs, probeDocuments: loaded.probeDocuments, scenarios: [], diagnostics: specs.diagnostics,
                fileCount: 0), &diagnostics)
        return (declarations, specs.diagnostics.errors + diagnostics.errors)
    }

    @Test func aMissingRequiredOptionIsALocatedErrorWithAHint() throws {
        let (_, errors) = try Self.decode(
            promises: """
                  cross_user:
                    source: "toy docs"
                    second_account: { inputs: \(ToyFlows.inputs(ToyAuthBackend.bob)) }
                    object_key: note_id
                    access: [toy.note-read]
                """)
        let error = try #require(errors.first, "no error")
        #expect(errors.count == 1, "\(errors)")
        #expect(error.location.description == "\(Self.file):6:3", "\(error)")
        #expect(error.message.hasPrefix("`cross_user` needs `owner`: A flow of this session that creates"), "\(error)")
        #expect(error.hint?.contains("owner:") == true, "a hint says what to add: \(error)")
    }

    /// Written as its source alone, a promise with required options names each of them, with the mapping form.
    @Test func aPromiseWithRequiredOptionsWrittenAsASourceAloneNamesThemAll() throws {
        let (_, errors) = try Self.decode(promises: #"  cross_user: "toy docs""#)
        #expect(
            errors.map(\.message).map { $0.prefix(24) } == [
                "`cross_user` needs `seco", "`cross_user` needs `owne", "`cross_user` needs `obje",
                "`cross_user` needs `acce",
            ],
            "\(errors)")
        #expect(
            errors.allSatisfy {
                $0.location.description == "\(Self.file):6:15" && $0.hint?.contains("cross_user: { source:") == true
            }, "\(errors)")
    }

    @Test func anUnknownOptionNamesTheAllowedOnes() throws {
        let (_, errors) = try Self.decode(
            promises: #"  send_limit: { source: "toy docs", flow: toy.send-code, colour: red }"#)
        let error = try #require(errors.first)
        #expect(errors.count == 1, "\(errors)")
        #expect(error.location.description == "\(Self.file):6:58", "\(error)")
        #expect(error.message == "unknown key `colour` in promise `send_limit`", "\(error)")
        #expect(error.hint == "allowed keys: source, requires, flow, inputs, burst", "\(error)")
        // A near miss is named instead.
        let (_, misspelt) = try Self.decode(
            promises: #"  send_limit: { source: "toy docs", flow: toy.send-code, brust: 3 }"#)
        #expect(misspelt.first?.hint == "did you mean `burst`?", "\(misspelt)")
    }

    @Test func theLogoutMappingDecodesItsAnswers() throws {
        let (declarations, errors) = try Self.decode(promises: "", logout: "{ flow: toy.logout, answers: [204] }")
        #expect(errors.isEmpty, "\(errors)")
        let declaration = try #require(declarations.first)
        #expect(declaration.logout?.name == "toy.logout" && declaration.logoutAnswers == [204])
        #expect(declaration.loggedOut(204) && !declaration.loggedOut(200))
        // The plain form: any 2xx.
        let plain = try #require(try Self.decode(promises: "").declarations.first)
        #expect(plain.logoutAnswers.isEmpty && plain.loggedOut(200) && plain.loggedOut(204) && !plain.loggedOut(401))

        let (_, wrong) = try Self.decode(promises: "", logout: "{ flow: toy.logout, answers: [600] }")
        #expect(
            wrong.map(\.description) == [
                "\(Self.file):4:39: error: `answers` lists the statuses of a logout that worked (2xx to 4xx), found `600`"
            ], "\(wrong)")
        let (_, noFlow) = try Self.decode(promises: "", logout: "{ answers: [204] }")
        #expect(noFlow.first?.message.contains("`flow`") == true, "\(noFlow)")
    }

    /// `access_after_logout` needs `logout:`; the refresh attacks need the session's `refresh:`; names in options
    /// are checked against the flows.
    @Test func aPromiseWithoutWhatItNeedsIsAnError() throws {
        let text = """
            probe: toy.customer
            login: { flow: toy.customer-login, inputs: \(ToyFlows.inputs(ToyAuthBackend.carol, code: false)) }
            protected: [toy.customer-me]
            promises:
              access_after_logout: "toy docs"
              rotation: "toy docs"
              one_time_codes: { source: "toy docs", logins: [ { flow: toy.magic-link } ] }
            """
        let loaded = LoadedFiles(
            sources: ToyFlows.files.merging(["flows/toy/customer-probe.yaml": text], uniquingKeysWith: { $1 }))
        let specs = loaded.program
        var diagnostics = Diagnostics()
        _ = ProbeLoader.declarations(
            in: Suite(
                specs: specs, probeDocuments: loaded.probeDocuments, scenarios: [], diagnostics: specs.diagnostics,
                fileCount: 0), &diagnostics)
        #expect(
            diagnostics.errors.map(\.description).sorted() == [
                "flows/toy/customer-probe.yaml:5:3: error: `access_after_logout` needs the `logout:` flow\n    hint: add `logout: <the flow that signs out>`",
                "flows/toy/customer-probe.yaml:6:3: error: `rotation` needs a refresh flow, and session `toy.customer` has no `refresh:`",
                "flows/toy/customer-probe.yaml:7:59: error: unknown flow `toy.magic-link`",
            ], "\(diagnostics.errors)")
    }

    @Test func anAttemptCountOutOfRangeIsAnError() throws {
        let (_, errors) = try Self.decode(promises: #"  attempt_limits: { source: "toy docs", codes: 500 }"#)
        #expect(
            errors.map(\.description) == [
                "\(Self.file):6:48: error: `codes` in promise `attempt_limits` must be a whole number from 1 to 50, found `500`"
            ], "\(errors)")
        // A run variable may give the count; it is checked when the probe runs (ToyCases: unset, it is skipped).
        #expect(
            try Self.decode(promises: #"  attempt_limits: { source: "toy docs", codes: "${vars.code_attempts}" }"#)
                .errors.isEmpty)
    }

    /// Wrong passwords lock the account they are sent for: only a throwaway account's, given by `inputs:`.
    @Test func passwordGuessesNeedAThrowawayAccountAndSomethingToGuess() throws {
        let (_, errors) = try Self.decode(promises: #"  attempt_limits: { source: "toy docs", passwords: 5 }"#)
        #expect(
            errors.map(\.description).count == 1
                && errors[0].description.contains(
                    "`attempt_limits` with `passwords:` needs `inputs:` of a throwaway account"),
            "\(errors)")
        let (_, nothing) = try Self.decode(promises: #"  attempt_limits: { source: "toy docs" }"#)
        #expect(
            nothing.map(\.description).count == 1
                && nothing[0].description.contains("needs `codes:`, `passwords:` or both"), "\(nothing)")
        #expect(
            try Self.decode(
                promises:
                    #"  attempt_limits: { source: "toy docs", passwords: 5, inputs: { email: "spare@toy.example" } }"#
            ).errors.isEmpty)
    }

    /// A count from a run variable is checked when the probe runs: out of range, the check is an ERROR.
    @Test func anAttemptCountFromAVariableOutOfRangeIsAnErrorWhenItRuns() async throws {
        let file = ToyFlows.probe(["attempt_limits": #"{ source: "toy docs", codes: "${vars.code_attempts}" }"#])
        let found = try await ToyProbe.run(
            probeFile: file, kinds: [.attemptLimits], vars: ["code_attempts": .string("500")]
        ).verdicts
        #expect(
            found.status(.attemptLimits, "wrong codes") == .error
                && found.first?.detail.contains("from 1 to 50") == true, "\(found.described)")
        let five = try await ToyProbe.run(
            probeFile: file, kinds: [.attemptLimits], vars: ["code_attempts": .string("5")]
        ).verdicts
        #expect(five.status(.attemptLimits, "wrong codes") == .held, "\(five.described)")
    }
}
