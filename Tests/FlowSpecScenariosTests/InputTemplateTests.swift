import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// One reading of input values given before a run, shared by scenario `inputs:` and `flowspec exec --input`.
@Suite struct InputTemplateTests {
    let at = SourceLocation(file: "--input code", line: 1, column: 1)

    func render(_ text: String, vars: [String: JSONValue] = [:], now: Double = 1_700_000_017) throws -> String {
        var d = Diagnostics()
        let template = try #require(
            InputTemplate.parse(text, at: at, name: "code", &d), "\(d.sorted.map(\.description))")
        return try ScenarioInputs(values: ["code": [template]]).resolved(vars, now: now, Redactor(), origin: .shell)
            .values["code"]?.first ?? ""
    }

    func errors(_ text: String) -> [String] {
        var d = Diagnostics()
        _ = InputTemplate.parse(text, at: at, name: "code", &d)
        return d.errors.map(\.description)
    }

    @Test func evaluatesOverRunVariablesAndTheClock() throws {
        #expect(try render("${totp(vars.s)}", vars: ["s": .string("JBSWY3DPEHPK3PXP")]) == "367665")
        #expect(try render("${totp(vars.s)}", vars: ["s": .string("JBSWY3DPEHPK3PXP")], now: 1_700_000_040) == "870960")
        #expect(try render("t-${now}") == "t-1700000017")
        #expect(try render("${vars.email}", vars: ["email": .string("qa@example.com")]) == "qa@example.com")
    }

    @Test func textWithoutATemplateIsTakenAsWrittenAndDoubleDollarIsALiteral() throws {
        #expect(try render("123456") == "123456")
        #expect(try render("$${vars.x}") == "${vars.x}")
        #expect(try render("a$b") == "a$b")
    }

    @Test(arguments: [
        ("${store.code}", "--input code:1:3: error: input `code` can read only run variables and the clock"),
        ("${inputs.code}", "found `inputs`"),
        ("${code}", "`code` is not one of them"),
        ("${vars.x", "unclosed `${`"),
        ("${totp(1)}", "--input code:1:"),
    ])
    func whatAnInputCannotReadIsALocatedError(text: String, message: String) {
        #expect(errors(text).contains { $0.contains(message) }, "\(text): \(errors(text))")
    }

    @Test func aVariableNotGivenSaysWhereToGiveIt() {
        #expect(throws: InputError.self) { try render("${vars.nope}") }
        do { _ = try render("${vars.nope}") } catch let error as InputError {
            #expect(
                error.message.hasPrefix("--input code:1:8: input `code`: run variable `nope` is not set"),
                "\(error.message)")
        } catch { Issue.record("\(error)") }
    }
}
