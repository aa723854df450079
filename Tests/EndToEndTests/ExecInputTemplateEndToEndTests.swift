import Foundation
import HostileBackend
import Testing

/// `flowspec exec --input 'code=${totp(vars.totp_secret)}'` evaluates `${…}` as a scenario input does (it was sent
/// literally): the server receives the computed code, the code never appears in exec's output, `$${` is a literal
/// `${`, and a bad template is exit 2 naming the `--input`.
@Suite(.timeLimit(.minutes(5))) struct ExecInputTemplateEndToEndTests {
    static let flow = """
        flow: demo.verify
        defaults: { base_url: "${vars.api_url}" }
        inputs:
          code: { type: code, secret: true }
          note: {}
        start: verify
        states:
          verify:
            request: { method: POST, path: /mfa, json: { code: "${inputs.code}", note: "${inputs.note}" } }
            on:
              - when: status == 200
                goto: verified
          verified: { end: verified, success: true, outputs: { code: inputs.code, note: inputs.note } }

        """

    static func folder() throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/demo"), withIntermediateDirectories: true)
        try flow.write(to: dir.appendingPathComponent("flows/demo/verify.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    static func server() throws -> HostileServer {
        try HostileServer(
            reply:
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    }

    /// The JSON body the server received.
    static func body(_ request: HostileServer.Request?) -> [String: Any] {
        guard let request else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:]
    }

    @Test(arguments: [false, true])
    func theServerReceivesTheComputedCodeAndTheOutputNeverShowsIt(json: Bool) async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try Self.server()
        defer { server.stop() }
        let result = try await FlowSpecBinary.run(
            [
                "exec", "demo.verify", "--flows", "flows", "--base-url", server.url,
                "--var", "totp_secret=JBSWY3DPEHPK3PXP",
                "--input", "code=${totp(vars.totp_secret)}", "--input", "note=$${not evaluated}",
            ]
                + (json ? ["--json"] : []), in: dir)
        #expect(result.status == 0, "\(result.all)")
        let sent = Self.body(server.requests.first)
        let code = try #require(sent["code"] as? String)
        #expect(
            code.count == 6 && code.allSatisfy(\.isNumber), "the server received a TOTP code, not the template: \(code)"
        )
        #expect(sent["note"] as? String == "${not evaluated}", "$${ is a literal ${: \(sent)")
        #expect(!result.all.contains(code), "the computed code is masked in exec's output: \(result.all)")
        #expect(!result.all.contains("JBSWY3DPEHPK3PXP"), "\(result.all)")
        #expect(result.all.contains("${not evaluated}"), "the literal note is shown: \(result.all)")
    }

    @Test(arguments: [
        (
            "code=${totpp(vars.totp_secret)}",
            "--input code:1:3: error: bad expression `totpp(vars.totp_secret)`: unknown function `totpp`"
        ),
        ("code=${store.code}", "--input code:1:3: error: input `code` can read only run variables and the clock"),
        ("code=${inputs.code", "--input code:1:1: error: unclosed `${`"),
        ("code=${vars.nope}", "--input code:1:"),
    ])
    func aBadTemplateIsExit2NamingTheInput(input: String, message: String) async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try Self.server()
        defer { server.stop() }
        let result = try await FlowSpecBinary.run(
            [
                "exec", "demo.verify", "--flows", "flows", "--base-url", server.url,
                "--var", "totp_secret=JBSWY3DPEHPK3PXP", "--input", input, "--input", "note=x",
            ], in: dir)
        #expect(result.status == 2, "\(input): \(result.all)")
        #expect(result.stderr.contains(message), "\(input): \(result.stderr)")
        #expect(server.requests.isEmpty, "nothing is sent when an input cannot be computed")
        if input.contains("vars.nope") { #expect(result.stderr.contains("--var nope="), "\(result.stderr)") }
    }
}
