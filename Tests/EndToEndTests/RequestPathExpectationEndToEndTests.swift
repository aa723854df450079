import Foundation
import HostileBackend
import Testing

/// `expect.requests[].path` selects requests by the path sent on the wire (the base URL's path prefix included),
/// through the built binary: `{ path: /full/prefix/tokens/refresh, count: 0 }` passed while that request was sent,
/// because it was compared with the state's `path:` alone. And `check` refuses an expectation no request can match.
@Suite(.timeLimit(.minutes(5))) struct RequestPathExpectationEndToEndTests {
    static func flow(baseURL: String) -> String {
        """
        flow: demo.refresh
        defaults:
          base_url: "\(baseURL)"
        start: me
        states:
          me:
            request: { method: GET, path: /me }
            on:
              - when: status == 401
                goto: refresh
              - else: true
                goto: done
          refresh:
            request: { method: POST, path: /tokens/refresh }
            on:
              - else: true
                goto: done
          done:
            end: done
            success: true

        """
    }

    static func scenario(live: Bool, path: String, count: Int) -> String {
        let backend =
            live
            ? "live: true\n"
            : """
            exchanges:
              - request: { method: GET, path: /me }
                response: { status: 401 }
              - request: { method: POST, path: /tokens/refresh }
                response: { status: 200 }

            """
        return """
            scenario: the refresh request is counted by the path it was sent to
            flow: demo.refresh
            \(backend)expect:
              outcome: done
              requests:
                - { method: POST, path: \(path), count: \(count) }

            """
    }

    static func folder(flow: String, scenario: String) throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/demo"), withIntermediateDirectories: true)
        try flow.write(to: dir.appendingPathComponent("flows/demo/refresh.yaml"), atomically: true, encoding: .utf8)
        try scenario.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    /// The bug as reported: a base URL with a path prefix, and `count: 0` for the request that was sent.
    @Test func aScriptedCountOfZeroForASentRequestFailsByItsFullPath() async throws {
        let dir = try Self.folder(
            flow: Self.flow(baseURL: "http://localhost:9/full/prefix"),
            scenario: Self.scenario(live: false, path: "/full/prefix/tokens/refresh", count: 0))
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["run", "--flows", "flows", "s.yaml"], in: dir)
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.contains("expected 0 requests to POST /full/prefix/tokens/refresh"), "\(result.stdout)")
        #expect(result.stdout.contains("got 1"), "\(result.stdout)")
    }

    /// The path as the flow writes it selects the same request: neither form lets `count: 0` pass.
    @Test(arguments: ["/full/prefix/tokens/refresh", "/tokens/refresh"])
    func eitherFormCountsTheRequest(_ path: String) async throws {
        for (count, status) in [(0, Int32(1)), (1, Int32(0))] {
            let dir = try Self.folder(
                flow: Self.flow(baseURL: "http://localhost:9/full/prefix/"),
                scenario: Self.scenario(live: false, path: path, count: count))
            defer { try? FileManager.default.removeItem(at: dir) }
            let result = try await FlowSpecBinary.run(["run", "--flows", "flows", "s.yaml"], in: dir)
            #expect(result.status == status, "\(path) count \(count): \(result.all)")
        }
    }

    /// Against a real server under a prefix: the path the server saw is the path the expectation is matched on.
    @Test func aLiveCountOfZeroForASentRequestFails() async throws {
        let server = try HostileServer { request in
            let status = request.path.hasSuffix("/me") ? "401 Unauthorized" : "200 OK"
            return [.send("HTTP/1.1 \(status)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")]
        }
        defer { server.stop() }
        for (path, count, status) in [
            ("/full/prefix/tokens/refresh", 0, Int32(1)), ("/full/prefix/tokens/refresh", 1, Int32(0)),
        ] {
            let dir = try Self.folder(
                flow: Self.flow(baseURL: "${vars.api_url}"),
                scenario: Self.scenario(live: true, path: path, count: count))
            defer { try? FileManager.default.removeItem(at: dir) }
            let result = try await FlowSpecBinary.run(
                ["run", "--flows", "flows", "s.yaml", "--var", "api_url=\(server.url)/full/prefix"], in: dir)
            #expect(result.status == status, "count \(count): \(result.all)")
            if count == 0 {
                #expect(
                    result.stdout.contains("expected 0 requests to POST /full/prefix/tokens/refresh (s.yaml"),
                    "\(result.stdout)")
            }
        }
        #expect(server.requests.map(\.path).contains("/full/prefix/tokens/refresh"), "\(server.requests.map(\.path))")
    }

    /// `check` (and `run`, which loads the same way) refuses an expectation that no request of the flow can match,
    /// located at the entry, listing what the flow can send.
    @Test func checkFlagsAnExpectationNoRequestCanMatch() async throws {
        let dir = try Self.folder(
            flow: Self.flow(baseURL: "http://localhost:9/full/prefix"),
            scenario: Self.scenario(live: false, path: "/prefix/tokens/refresh", count: 0))
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["check", "flows", "s.yaml"], in: dir)
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.all.contains(
                "s.yaml:11:7: error: no request of `demo.refresh` can match `POST /prefix/tokens/refresh`"),
            "\(result.all)")
        #expect(
            result.all.contains("the flow can send: GET /full/prefix/me, POST /full/prefix/tokens/refresh"),
            "\(result.all)")
        let run = try await FlowSpecBinary.run(["run", "--flows", "flows", "s.yaml"], in: dir)
        #expect(run.status == 2, "\(run.all)")
    }

    /// A base URL from a variable: its prefix is unknown when checking, so only the end of the path is compared —
    /// any prefix is accepted, a wrong end is still refused, and the hint says why.
    @Test func withABaseURLFromAVariableOnlyTheEndIsCompared() async throws {
        for (path, status) in [("/any/prefix/tokens/refresh", Int32(0)), ("/tokens/refreshed", Int32(2))] {
            let dir = try Self.folder(
                flow: Self.flow(baseURL: "${vars.api_url}"), scenario: Self.scenario(live: true, path: path, count: 0))
            defer { try? FileManager.default.removeItem(at: dir) }
            let result = try await FlowSpecBinary.run(["check", "flows", "s.yaml"], in: dir)
            #expect(result.status == status, "\(path): \(result.all)")
            if status == 2 {
                #expect(result.all.contains("POST …/tokens/refresh"), "\(result.all)")
                #expect(
                    result.all.contains("the base URL comes from `vars.api_url`, unknown until the run"),
                    "\(result.all)")
            }
        }
    }

    /// What `check` could not know, a live run does: with the base URL rendered from its variables, a wrong prefix
    /// (`/fx` where the backend is under `/fs`) would let `count: 0` pass whatever is sent. The run fails before it
    /// sends anything, naming the expectation and what the flow sends there.
    @Test func aLiveRunRefusesAnExpectationItsBaseURLCannotMatch() async throws {
        let server = try HostileServer { request in
            let status = request.path.hasSuffix("/me") ? "401 Unauthorized" : "200 OK"
            return [.send("HTTP/1.1 \(status)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")]
        }
        defer { server.stop() }
        let dir = try Self.folder(
            flow: Self.flow(baseURL: "${vars.api_url}"),
            scenario: Self.scenario(live: true, path: "/fx/tokens/refresh", count: 0))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            try await FlowSpecBinary.run(["check", "flows", "s.yaml"], in: dir).status == 0,
            "check cannot know the prefix")
        let result = try await FlowSpecBinary.run(
            ["run", "--flows", "flows", "s.yaml", "--var", "api_url=\(server.url)/fs"], in: dir)
        #expect(result.status == 1, "\(result.all)")
        #expect(
            result.stdout.contains(
                "s.yaml:7:7: error: no request of `demo.refresh` can match `POST /fx/tokens/refresh`"),
            "\(result.stdout)")
        #expect(result.stdout.contains("POST /fs/tokens/refresh"), "\(result.stdout)")
        #expect(server.requests.isEmpty, "nothing is sent: \(server.requests.map(\.path))")
    }
}
