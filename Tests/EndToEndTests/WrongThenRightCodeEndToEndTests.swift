import Foundation
import HostileBackend
import Testing

/// "A wrong code, then the one that was sent", live: a scenario input's list ends with a `{ command: … }`, whose
/// answer comes after the given values — and a command anywhere else in the list is a located error.
@Suite(.timeLimit(.minutes(5))) struct WrongThenRightCodeEndToEndTests {
    static let flow = """
        flow: app.verify
        defaults:
          base_url: "${vars.api_url}"
        inputs:
          code: { type: code, pattern: "^[0-9]{6}$", secret: true }
        start: ask
        states:
          ask:
            input: code
            goto: verify
          verify:
            request: { method: POST, path: /verify, json: { code: "${inputs.code}" } }
            on:
              - when: status == 200
                goto: in
              - when: status == 401 && tries < 1
                set: { tries: tries + 1 }
                goto: ask
          in: { end: signed_in, success: true }
        variables: { tries: 0 }
        """

    func project(_ inputs: String) throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/app"), withIntermediateDirectories: true)
        try Self.flow.write(to: dir.appendingPathComponent("flows/app/verify.yaml"), atomically: true, encoding: .utf8)
        try """
        scenario: a wrong code is refused, then the code from the mailbox is accepted
        live: true
        flow: app.verify
        inputs:
          code: \(inputs)
        expect: { outcome: signed_in, request_count: 2 }

        """.write(to: dir.appendingPathComponent("verify.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func givenValuesComeFirstThenTheCommand() async throws {
        let server = try HostileServer { request in
            let accepted = String(decoding: request.body, as: UTF8.self).contains("\"314159\"")
            return [.send("HTTP/1.1 \(accepted ? "200 OK" : "401 Unauthorized")\r\nContent-Length: 0\r\n\r\n")]
        }
        defer { server.stop() }
        let dir = try project(#"["000000", { command: "echo 314159" }]"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(
            ["run", "verify.yaml", "--flows", "flows", "--var", "api_url=\(server.url)"], in: dir)
        #expect(result.status == 0, "\(result.all)")
        #expect(
            server.requests.map { String(decoding: $0.body, as: UTF8.self) } == [
                #"{"code":"000000"}"#, #"{"code":"314159"}"#,
            ])
    }

    @Test func aCommandBeforeTheLastItemIsALocatedError() async throws {
        let dir = try project(#"[{ command: "echo 314159" }, "000000"]"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["check", "flows", "verify.yaml"], in: dir)
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.all.contains(
                "verify.yaml:5:10: error: a `{ command: … }` of input `code` must be the list's last item"),
            "\(result.all)")
    }
}
