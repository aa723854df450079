import Foundation
import HostileBackend
import Testing

/// A logout the server answers with 401, inside a session whose `refresh.when` is `status == 401`: through the built
/// binary it ended `signed_out: Session expired`; with `answers: [401]` (or the session's `refresh.not_for`) the 401
/// is the logout's answer and the flow reaches its success end, with the bearer still sent and no refresh.
@Suite(.timeLimit(.minutes(5))) struct StatusAnswerEndToEndTests {
    static func session(notFor: String = "") -> String {
        """
        session: demo.session
        namespace: demo
        headers: { Authorization: "Bearer ${store.access}" }
        refresh:
          flow: demo.refresh
          when: status == 401
          on_failure: { outcome: signed_out, reason: "Session expired" }
        \(notFor.isEmpty ? "" : "  not_for: [\"\(notFor)\"]")

        """
    }

    static let refresh = """
        flow: demo.refresh
        defaults: { base_url: "${vars.api_url}" }
        start: r
        states:
          r:
            request: { method: POST, path: /refresh }
            on:
              - when: status == 200
                store: { access: body.access }
                goto: ok
              - else: true
                goto: no
          ok: { end: refreshed, success: true }
          no: { end: refused, success: false }

        """

    static func logout(answers: String) -> String {
        """
        flow: demo.logout
        session: demo.session
        defaults: { base_url: "${vars.api_url}" }
        start: out
        states:
          out:
            request: { method: POST, path: /auth/logout }
            \(answers)
            on:
              - when: status == 401 || status == 204
                goto: done
          done: { end: logged_out, success: true }

        """
    }

    /// The server's answer to a logout is 401 (and, when scripted, it refuses a refresh, as a server that has just
    /// logged the user out does).
    static func scenario(refreshScripted: Bool) -> String {
        let refresh =
            refreshScripted
            ? """
              - request: { method: POST, path: /refresh }
                response: { status: 401, json: { error: invalid_grant } }

            """ : ""
        return """
            scenario: logging out is answered with 401
            flow: demo.logout
            vars: { api_url: "http://localhost:9" }
            store: { demo: { access: tok-1 } }
            exchanges:
              - request: { method: POST, path: /auth/logout, headers: { Authorization: Bearer tok-1 } }
                response: { status: 401, json: { detail: "logged out" } }
            \(refresh)expect:
              outcome: logged_out
              requests:
                - { method: POST, path: /refresh, count: 0 }

            """
    }

    static func folder(answers: String, session: String = session(), refreshScripted: Bool = false) throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/demo"), withIntermediateDirectories: true)
        for (name, text) in [("session", session), ("refresh", refresh), ("logout", logout(answers: answers))] {
            try text.write(to: dir.appendingPathComponent("flows/demo/\(name).yaml"), atomically: true, encoding: .utf8)
        }
        try scenario(refreshScripted: refreshScripted).write(
            to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func aScriptedLogoutAnswered401ReachesItsSuccessEndOnlyWithAnswers() async throws {
        let with = try Self.folder(answers: "answers: [401]")
        defer { try? FileManager.default.removeItem(at: with) }
        let passed = try await FlowSpecBinary.run(["run", "--flows", "flows", "s.yaml"], in: with)
        #expect(passed.status == 0, "\(passed.all)")
        #expect(passed.stdout.contains("1 passed"), "\(passed.stdout)")

        // The old behaviour, which `answers:` changes: the 401 is taken for an expired token and refreshed.
        let without = try Self.folder(answers: "", refreshScripted: true)
        defer { try? FileManager.default.removeItem(at: without) }
        let failed = try await FlowSpecBinary.run(["run", "--flows", "flows", "s.yaml"], in: without)
        #expect(failed.status == 1, "\(failed.all)")
        #expect(failed.stdout.contains("expected outcome `logged_out`, got `signed_out`"), "\(failed.stdout)")
        #expect(
            failed.stdout.contains("expected 0 requests to POST /refresh"),
            "the refresh was attempted: \(failed.stdout)")
    }

    @Test func aSessionsNotForExemptsTheLogoutTheSameWay() async throws {
        let dir = try Self.folder(answers: "", session: Self.session(notFor: "POST /auth/logout"))
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["run", "--flows", "flows", "s.yaml"], in: dir)
        #expect(result.status == 0, "\(result.all)")
    }

    @Test func checkLocatesANotForEntryThatNamesNoRequest() async throws {
        let dir = try Self.folder(answers: "", session: Self.session(notFor: "POST /auth/logot"))
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["check", "flows"], in: dir)
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.all.contains("session.yaml:8:14: error: `refresh.not_for` names POST /auth/logot"), "\(result.all)")
        #expect(result.all.contains("did you mean `POST /auth/logout`?"), "\(result.all)")
    }

    @Test func checkLocatesABadStatus() async throws {
        let dir = try Self.folder(answers: "answers: [4O1]")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["check", "flows"], in: dir)
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.all.contains("logout.yaml:8:15: error: `answers` in state `out`: each entry must be an HTTP status"),
            "\(result.all)")
    }

    /// Against a real server on loopback, through `exec`: the logout gets the bearer, the 401 ends the flow at its
    /// success end, and the refresh endpoint (which would refuse) is never called.
    @Test func execAgainstALocalServerThatAnswersLogoutWith401() async throws {
        let server = try HostileServer { request in
            let body = request.path == "/refresh" ? #"{"error":"invalid_grant"}"# : #"{"detail":"logged out"}"#
            return [
                .send(
                    "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                )
            ]
        }
        defer { server.stop() }
        for (answers, status) in [("answers: [401]", Int32(0)), ("", Int32(1))] {
            let dir = try Self.folder(answers: answers)
            defer { try? FileManager.default.removeItem(at: dir) }
            let store = dir.appendingPathComponent("store.json")
            try #"{"demo":{"access":"tok-1"}}"#.write(to: store, atomically: true, encoding: .utf8)
            let before = server.requests.count
            let result = try await FlowSpecBinary.run(
                ["exec", "demo.logout", "--flows", "flows", "--base-url", server.url, "--store", store.path], in: dir)
            #expect(result.status == status, "\(answers): \(result.all)")
            let seen = server.requests.dropFirst(before)
            if status == 0 {
                #expect(result.stdout.contains("logged_out (success)"), "\(result.stdout)")
                #expect(seen.map(\.path) == ["/auth/logout"], "\(seen.map(\.path))")
                #expect(seen.first?.head.contains("Authorization: Bearer tok-1") == true, "\(seen.first?.head ?? "")")
            } else {
                #expect(result.stdout.contains("signed_out (failure): Session expired"), "\(result.stdout)")
                #expect(seen.map(\.path) == ["/auth/logout", "/refresh"], "\(seen.map(\.path))")
            }
        }
    }
}
