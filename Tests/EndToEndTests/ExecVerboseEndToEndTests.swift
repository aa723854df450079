import Foundation
import HostileBackend
import Testing

/// `flowspec exec --verbose` prints every request and response as `run --verbose` does, with the same masking: the
/// password given with --input, the token the backend hands out (under a name that does not say "token"), the
/// Authorization header that carries it and a code fetched by --input-command never appear — on stdout without
/// --json, on stderr with it (stdout then stays one JSON object).
@Suite(.timeLimit(.minutes(5))) struct ExecVerboseEndToEndTests {
    static let flow = """
        flow: demo.login
        defaults: { base_url: "${vars.api_url}" }
        inputs:
          email: { type: email }
          password: { type: string, secret: true }
          # Not declared secret nor `type: code`: fetched by a command, it is masked all the same.
          number: { type: string, pattern: "^[0-9]{6}$" }
        variables: { greeting: "", echoed: "" }
        start: login
        states:
          login:
            request: { method: POST, path: /login, json: { email: "${inputs.email}", password: "${inputs.password}" } }
            on:
              - when: status == 200
                store: { access_token: body.session_ref }
                goto: ask_code
          ask_code:
            input: number
            goto: verify
          verify:
            request:
              method: POST
              path: /verify
              headers: { Authorization: "Bearer ${store.access_token}" }
              json: { number: "${inputs.number}" }
            on:
              - when: status == 200
                set: { greeting: body.greeting, echoed: body.number }
                goto: signed_in
          signed_in: { end: signed_in, success: true, outputs: { greeting: greeting, echoed: echoed } }

        """

    static let password = "Hunter2-Correct-Horse"
    static let token = "sess-7f3a9c2e5b8d4f1a"
    static let code = "314159"

    static func folder() throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/demo"), withIntermediateDirectories: true)
        try flow.write(to: dir.appendingPathComponent("flows/demo/login.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Hands out the token on /login; on /verify echoes the code back, as a careless server might.
    static func server() throws -> HostileServer {
        try HostileServer { request in
            let body =
                request.path == "/login"
                ? #"{"session_ref":"\#(token)","user":"qa"}"# : #"{"greeting":"hello qa","number":"\#(code)"}"#
            return [
                .send(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                )
            ]
        }
    }

    static func exec(_ extra: [String], in dir: URL, _ server: HostileServer) async throws -> FlowSpecBinary.Output {
        try await FlowSpecBinary.run(
            [
                "exec", "demo.login", "--flows", "flows", "--base-url", server.url,
                "--input", "email=qa@example.com", "--input", "password=\(password)",
                "--input-command", "number=echo \(code)",
            ] + extra, in: dir)
    }

    @Test(arguments: [false, true])
    func everyExchangeIsPrintedWithItsSecretsMasked(json: Bool) async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try Self.server()
        defer { server.stop() }
        let result = try await Self.exec(["--verbose"] + (json ? ["--json"] : []), in: dir, server)
        #expect(result.status == 0, "\(result.all)")
        #expect(server.requests.count == 2)
        let sentCode = server.requests.last.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
        #expect(sentCode.contains(Self.code), "the server received the fetched code: \(sentCode)")
        let shown = json ? result.stderr : result.stdout
        for line in [
            "POST \(server.url)/login", "POST \(server.url)/verify", "Authorization: Bearer", "← 200",
            "\"email\":\"qa@example.com\"", "\"greeting\":\"hello qa\"", "(demo.login · verify)",
        ] {
            #expect(shown.contains(line), "`\(line)` in \(json ? "stderr" : "stdout"):\n\(shown)")
        }
        for secret in [Self.password, Self.token, Self.code] {
            #expect(!result.all.contains(secret), "`\(secret)` leaked:\n\(result.all)")
        }
        // The exchanges come once the flow has ended, after its path: only then is every secret known.
        let login = try #require(shown.range(of: "POST \(server.url)/login"))
        let lastState = try #require(shown.range(of: "→ signed_in"))
        #expect(lastState.lowerBound < login.lowerBound, "\(shown)")
        if json {
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(object?["outcome"] as? String == "signed_in", "stdout is one JSON object: \(result.stdout)")
        }
    }

    @Test(arguments: [false, true])
    func withoutVerboseNoExchangeIsPrintedAndTheFetchedCodeIsStillMasked(json: Bool) async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try Self.server()
        defer { server.stop() }
        let result = try await Self.exec(json ? ["--json"] : [], in: dir, server)
        #expect(result.status == 0, "\(result.all)")
        #expect(!result.all.contains("/login"), "\(result.all)")
        // The server echoes the code back and the flow outputs it as `echoed`: shown unless the fetched code is masked.
        #expect(!result.all.contains(Self.code), "\(result.all)")
        #expect(result.all.contains("echoed"), "\(result.all)")
    }
}
