import Foundation
import HostileBackend
import Testing

/// A live scenario acts on the backend's world between steps — an admin deactivating the account — with a
/// `command:` step: it runs with the non-secret inputs handed out so far in its environment, a failing command fails
/// the scenario, and a scripted scenario may not have one.
@Suite(.timeLimit(.minutes(5))) struct CommandStepEndToEndTests {
    static let flows = [
        "login.yaml": """
        flow: app.login
        defaults:
          base_url: "${vars.api_url}"
        inputs:
          username: { type: string }
        start: login
        states:
          login:
            request: { method: POST, path: /login, json: { username: "${inputs.username}" } }
            on:
              - when: status == 200
                goto: in
          in: { end: signed_in, success: true }
        """,
        "me.yaml": """
        flow: app.me
        defaults:
          base_url: "${vars.api_url}"
        start: me
        states:
          me:
            request: { method: GET, path: /me }
            on:
              - when: status == 200
                goto: ok
              - when: status == 401
                goto: refused
          ok: { end: ok, success: true }
          refused: { end: refused, success: true }
        """,
    ]

    func project(command: String, live: Bool = true) throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/app"), withIntermediateDirectories: true)
        for (name, text) in Self.flows {
            try text.write(to: dir.appendingPathComponent("flows/app/\(name)"), atomically: true, encoding: .utf8)
        }
        try """
        scenario: a deactivated account is refused at once
        \(live ? "live: true\n" : "")steps:
          - run: app.login
            inputs: { username: qa }
            expect: { outcome: signed_in }
          - command: \(command)
          - run: app.me
            expect: { outcome: refused }

        """.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    /// The server refuses /me once the marker file exists: the command between the steps creates it, naming the user
    /// the login used (from its environment).
    @Test func theCommandRunsBetweenTheStepsWithTheInputsInItsEnvironment() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flowspec-deactivated-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let server = try HostileServer { request in
            let status =
                request.path == "/me" && FileManager.default.fileExists(atPath: marker) ? "401 Unauthorized" : "200 OK"
            return [.send("HTTP/1.1 \(status)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")]
        }
        defer { server.stop() }
        let dir = try project(command: #""printf '%s' \"$username\" > ${vars.marker}""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(
            ["run", "s.yaml", "--flows", "flows", "--var", "api_url=\(server.url)", "--var", "marker=\(marker)"],
            in: dir)
        #expect(result.status == 0, "\(result.all)")
        #expect((try? String(contentsOfFile: marker, encoding: .utf8)) == "qa", "the command saw the login's username")
    }

    @Test func aFailingCommandFailsTheScenario() async throws {
        let server = try HostileServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        defer { server.stop() }
        let dir = try project(command: #""echo no such account >&2; exit 3""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(
            ["run", "s.yaml", "--flows", "flows", "--var", "api_url=\(server.url)"], in: dir)
        #expect(result.status == 1, "\(result.all)")
        #expect(
            result.stdout.contains("step 2: the command failed: the command exited with status 3: no such account"),
            "\(result.stdout)")
        #expect(!server.requests.contains { $0.path == "/me" }, "the scenario stopped at the failed command")
    }

    @Test func aScriptedScenarioMayNotRunACommand() async throws {
        let dir = try project(command: "\"true\"", live: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["check", "flows", "s.yaml"], in: dir)
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.all.contains(
                "s.yaml:6:5: error: a `command:` step acts on a real backend's world; a scripted scenario is self-contained"
            ), "\(result.all)")
    }
}
