import FlowSpecLanguage
import FlowSpecRuntime
import Foundation
import Testing

@testable import FlowSpecScenarios

/// What `flowspec exec` does besides running its flow, as library calls: its inputs checked and rendered, its end
/// told to people and to scripts, masked.
@Suite(.timeLimit(.minutes(5))) struct ExecTests {
    @Test func inputsAreRenderedAsScenarioInputsAre() throws {
        let values = try ExecInputs.rendered(
            [("code", "${vars.n + 1}"), ("literal", "$${x}")], vars: ["n": .number(41)], now: 0,
            redactor: Redactor())
        #expect(values["code"] == ["42"])
        #expect(values["literal"] == ["${x}"])
    }

    @Test func aBadInputTemplateIsLocatedInTheValueAndMasked() {
        let redactor = Redactor()
        redactor.register("hunter22")
        #expect(throws: ExecInputError.self) {
            try ExecInputs.rendered([("code", "${vars.}")], vars: [:], now: 0, redactor: redactor)
        }
        do {
            _ = try ExecInputs.rendered(
                [("password", "hunter22${vars.missing}")], vars: [:], now: 0, redactor: redactor)
            Issue.record("an unset variable was accepted")
        } catch {
            #expect(error.lines.count == 1)
            #expect(error.lines[0].contains("run variable `missing` is not set"), "\(error.lines)")
            #expect(!error.lines[0].contains("hunter22"), "\(error.lines)")
        }
    }

    @Test func theEndIsToldMaskedToPeopleAndScripts() {
        let redactor = Redactor()
        redactor.register("tok-secret-1234")
        let result = FlowResult(
            flow: "demo.login",
            ending: .end(
                outcome: "signed_in", success: true, reason: "",
                outputs: ["user": .string("ada"), "token": .string("tok-secret-1234")]),
            path: ["start", "signed_in"])
        let lines = ExecOutcome.lines(result, redactor: redactor)
        #expect(lines[0] == "signed_in (success)")
        #expect(lines.count == 3 && lines[1].hasPrefix("  token: ") && lines[2] == "  user: ada", "\(lines)")
        #expect(!lines.joined().contains("tok-secret-1234"))
        let json = ExecOutcome.json(result, redactor: redactor)
        #expect(
            json.contains("\"flow\":\"demo.login\"") && json.contains("\"success\":true")
                && json.contains("\"path\":[\"start\",\"signed_in\"]"), "\(json)")
        #expect(!json.contains("tok-secret-1234"), "\(json)")
        #expect(ExecOutcome.failureReason(result, redactor: redactor) == nil)
        let failed = FlowResult(
            flow: "demo.login",
            ending: .end(outcome: "denied", success: false, reason: "401 from \u{1B}[31mbackend", outputs: [:]))
        #expect(ExecOutcome.lines(failed, redactor: redactor) == ["denied (failure): 401 from \\u{1B}[31mbackend"])
        #expect(ExecOutcome.failureReason(failed, redactor: redactor)?.contains("401 from") == true)
    }
}
