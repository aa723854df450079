import Foundation
import Testing

/// `type: code` is a one-time code; its characters are its `pattern:`'s business (a recovery code `ABCD-EFGH`), and
/// without a pattern a code is letters and digits in groups joined by `-`.
@Suite(.timeLimit(.minutes(5))) struct CodeInputEndToEndTests {
    static let flow = """
        flow: app.verify
        inputs:
          recovery: { type: code, pattern: "^[A-Z]{4}-[A-Z]{4}$" }
          code: { type: code }
        start: ask_recovery
        states:
          ask_recovery:
            input: recovery
            goto: ask_code
            invalid: refused
          ask_code:
            input: code
            goto: verify
            invalid: refused
          verify:
            request: { method: POST, path: /verify, json: { recovery: "${inputs.recovery}", code: "${inputs.code}" } }
            on:
              - when: status == 200
                goto: verified
          verified: { end: verified, success: true }
          refused: { end: refused, success: false, reason: "${input_error}" }
        """

    /// A refused value never reaches the request, so its scenario scripts none.
    static func scenario(recovery: String, code: String, outcome: String) -> String {
        let exchanges =
            outcome == "verified"
            ? """
            exchanges:
              - request: { method: POST, path: /verify, json: { recovery: "\(recovery)", code: "\(code)" } }
                response: { status: 200 }
            """ : "exchanges: []"
        return """
            scenario: recovery \(recovery), code \(code)
            flow: app.verify
            inputs: { recovery: "\(recovery)", code: "\(code)" }
            \(exchanges)
            expect: { outcome: \(outcome) }
            """
    }

    @Test func aPatternAloneDecidesACodesShape() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/app"), withIntermediateDirectories: true)
        try Self.flow.write(to: dir.appendingPathComponent("flows/app/verify.yaml"), atomically: true, encoding: .utf8)
        let cases = [
            ("dashed.yaml", Self.scenario(recovery: "ABCD-EFGH", code: "abcd-1234", outcome: "verified")),
            ("digits.yaml", Self.scenario(recovery: "WXYZ-ABCD", code: "123456", outcome: "verified")),
            ("unpatterned.yaml", Self.scenario(recovery: "ABCDEFGH", code: "123456", outcome: "refused")),
            ("spaced.yaml", Self.scenario(recovery: "ABCD-EFGH", code: "123 456", outcome: "refused")),
        ]
        for (file, text) in cases {
            try text.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let result = try await FlowSpecBinary.run(["run", "--flows", "flows"] + cases.map(\.0), in: dir)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.contains("4 passed"), "\(result.stdout)")
    }
}
