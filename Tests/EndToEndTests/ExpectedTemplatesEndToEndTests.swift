import Foundation
import HostileBackend
import Testing

/// A live scenario that must work for any account expects "the username I logged in with":
/// `outputs: { username: "${vars.qa_username}" }` is rendered with the run's `--var`s when checked (it was compared
/// as the literal text), passes when the server signs in that user, fails naming the rendered value when it does not,
/// keeps a password variable masked, and `check` refuses a template that reads anything but `vars` and `now`.
@Suite(.timeLimit(.minutes(5))) struct ExpectedTemplatesEndToEndTests {
    static let flow = """
        flow: demo.login
        defaults: { base_url: "${vars.api_url}" }
        inputs:
          username: { type: string }
          password: { type: string, secret: true }
        variables: { username: "" }
        start: login
        states:
          login:
            request: { method: POST, path: /login, json: { username: "${inputs.username}", password: "${inputs.password}" } }
            on:
              - when: status == 200
                set: { username: body.username }
                goto: signed_in
          signed_in: { end: signed_in, success: true, reason: "signed in as ${username}", outputs: { username: username } }

        """

    static func scenario(expectedUsername: String = "${vars.qa_username}") -> String {
        """
        scenario: the signed-in user is the one the run logged in as
        live: true
        flow: demo.login
        inputs: { username: "${vars.qa_username}", password: "${vars.qa_password}" }
        expect:
          outcome: signed_in
          reason: "as ${vars.qa_username}"
          outputs: { username: "\(expectedUsername)" }

        """
    }

    static let password = "Corr3ct-Horse-Battery"

    static func folder(_ scenario: String = scenario()) throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/demo"), withIntermediateDirectories: true)
        try flow.write(to: dir.appendingPathComponent("flows/demo/login.yaml"), atomically: true, encoding: .utf8)
        try scenario.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Signs in whoever asks as `qa`, as a server with one test account would.
    static func server() throws -> HostileServer {
        let body = #"{"username":"qa"}"#
        return try HostileServer(
            reply:
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        )
    }

    static func run(_ dir: URL, _ server: HostileServer, username: String, password: String = password) async throws
        -> FlowSpecBinary.Output
    {
        try await FlowSpecBinary.run(
            [
                "run", "--flows", "flows", "s.yaml", "--var", "api_url=\(server.url)",
                "--var", "qa_username=\(username)", "--var", "qa_password=\(password)",
            ], in: dir)
    }

    @Test func theExpectedOutputComesFromTheRunVariables() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try Self.server()
        defer { server.stop() }
        let check = try await FlowSpecBinary.run(["check", "flows", "s.yaml"], in: dir)
        #expect(check.status == 0, "\(check.all)")
        let result = try await Self.run(dir, server, username: "qa")
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.contains("1 passed, 0 failed"), "\(result.stdout)")
    }

    @Test func anotherAccountFailsNamingTheRenderedValue() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try Self.server()
        defer { server.stop() }
        let result = try await Self.run(dir, server, username: "someone-else")
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.contains(#"expected output `username` = "someone-else", got "qa""#), "\(result.stdout)")
        #expect(
            result.stdout.contains(#"expected the reason to contain "as someone-else", got "signed in as qa""#),
            "\(result.stdout)")
        #expect(!result.all.contains("${vars."), "the rendered value is shown, not the template: \(result.all)")
    }

    @Test func aPasswordVariableInAnExpectationStaysMasked() async throws {
        let dir = try Self.folder(Self.scenario(expectedUsername: "${vars.qa_password}"))
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try Self.server()
        defer { server.stop() }
        let result = try await Self.run(dir, server, username: "qa")
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.contains("expected output `username` = "), "\(result.stdout)")
        #expect(!result.all.contains(Self.password), "\(result.all)")
    }

    @Test func aVariableNotGivenSkipsTheLiveScenarioNamingIt() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try Self.server()
        defer { server.stop() }
        let result = try await FlowSpecBinary.run(
            ["run", "--flows", "flows", "s.yaml", "--var", "api_url=\(server.url)"], in: dir)
        #expect(result.stdout.contains("SKIP"), "\(result.all)")
        #expect(result.stdout.contains("qa_username"), "\(result.stdout)")
        #expect(server.requests.isEmpty)
    }

    @Test func checkRefusesATemplateThatReadsTheFlow() async throws {
        let dir = try Self.folder(Self.scenario(expectedUsername: "${inputs.username}"))
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["check", "flows", "s.yaml"], in: dir)
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.all.contains(
                "s.yaml:8:27: error: expected output `username` can read only run variables and the clock"),
            "\(result.all)")
    }
}
