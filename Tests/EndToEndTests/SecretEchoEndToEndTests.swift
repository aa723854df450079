import Foundation
import HostileBackend
import Testing

/// What a backend sends back reaches the console and the reports masked and inert, through the built binary:
/// a token made of letters and `_` (it looked like an error code and was shown), the password echoed
/// percent-encoded, in base64 and HTML-escaped, a query-string secret in `run`'s infrastructure error, and control
/// characters that would rewrite the terminal (`\r` then a forged `ok (success)`).
@Suite(.timeLimit(.minutes(5))) struct SecretEchoEndToEndTests {
    static let flows = FlowSpecBinary.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/echo/flows").path
    static let password = "correct horse <battery> staple"
    static let token = "abcdef_ghijkl_mnopqr"
    static let percent = "correct%20horse%20%3Cbattery%3E%20staple"
    static let base64 = Data(password.utf8).base64EncodedString()
    static let basic = Data("qa:\(password)".utf8).base64EncodedString()
    static let html = "correct horse &lt;battery&gt; staple"
    /// Erase the line, go back to its start, claim success, and start a line of its own.
    static let forged = #"\e[2K\rok (success)\nPASS  forged"#

    static func scenario(message: String) -> String {
        """
        scenario: a backend echoes what it was sent
        flow: echo.login
        inputs: { password: "\(password)" }
        exchanges:
          - request: { method: GET, path: /login }
            response:
              status: 200
              json: { access_token: \(token), message: "\(message)" }
        expect:
          outcome: rejected

        """
    }

    static func leaked(_ text: String) -> [String] {
        [token, percent, base64, String(basic.dropFirst(4).dropLast(4)), html, "horse"].filter { text.contains($0) }
    }

    /// Neither an escape character nor a carriage return, and no line the backend started.
    static func inert(_ text: String) -> Bool {
        !text.contains("\u{1B}") && !text.contains("\r")
            && !text.split(separator: "\n").contains { $0.hasPrefix("PASS  forged") || $0.hasPrefix("ok (success)") }
    }

    @Test func runMasksShapeFreeTokensAndEncodedEchoesOnTheConsoleAndInEveryReport() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let message = "you sent password=\(Self.percent) \(Self.base64) Basic \(Self.basic) <p>\(Self.html)</p>"
        try Self.scenario(message: message).write(
            to: dir.appendingPathComponent("echo.yaml"), atomically: true, encoding: .utf8)
        let reports = ["json", "junit", "html", "tap"].map { dir.appendingPathComponent("r.\($0)").path }
        let result = try await FlowSpecBinary.run(
            ["run", "--flows", Self.flows, "echo.yaml", "--verbose"]
                + zip(["json", "junit", "html", "tap"], reports).flatMap { ["--report", "\($0)=\($1)"] },
            in: dir)
        #expect(result.status == 1, "\(result.all)")
        // Not vacuous: the message and the body were shown, masked.
        #expect(result.stdout.contains("you sent password=••••"), "\(result.stdout)")
        #expect(result.stdout.contains(#""access_token":"••••""#), "\(result.stdout)")
        for text in try [result.stdout, result.stderr]
            + reports.map({ try String(contentsOfFile: $0, encoding: .utf8) })
        {
            #expect(Self.leaked(text).isEmpty, "shown: \(Self.leaked(text)) in \(text.prefix(3000))")
        }
    }

    @Test func runEscapesABackendsControlCharacters() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.scenario(message: Self.forged).write(
            to: dir.appendingPathComponent("echo.yaml"), atomically: true, encoding: .utf8)
        let tap = dir.appendingPathComponent("r.tap").path
        let result = try await FlowSpecBinary.run(
            ["run", "--flows", Self.flows, "echo.yaml", "--verbose", "--report", "tap=\(tap)"], in: dir)
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.contains(#"\u{1B}[2K\rok (success)"#), "\(result.stdout)")
        #expect(Self.inert(result.stdout), "\(result.stdout.debugDescription)")
        #expect(Self.inert(try String(contentsOfFile: tap, encoding: .utf8)))
    }

    @Test func execEscapesControlCharactersAndMasksAShapeFreeToken() async throws {
        let body = #"{"access_token":"\#(Self.token)","message":"\u001b[2K\rok (success)\nPASS  forged"}"#
        let server = try HostileServer(
            reply:
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        defer { server.stop() }
        for json in [false, true] {
            let result = try await FlowSpecBinary.run(
                [
                    "exec", "echo.login", "--flows", Self.flows, "--base-url", server.url,
                    "--input", "password=\(Self.password)",
                ] + (json ? ["--json"] : []))
            #expect(result.status == 0, "\(result.all)")
            #expect(
                result.stdout.contains(
                    json ? #"\u001b[2K\rok (success)"# : #"done (success): \u{1B}[2K\rok (success)\nPASS  forged"#),
                "\(result.stdout)")
            #expect(Self.inert(result.all), "\(result.all.debugDescription)")
            #expect(Self.leaked(result.all).isEmpty, "\(result.all)")
        }
    }

    /// `exec` masked the password in the URL of an infrastructure error; `run` showed it percent-encoded.
    @Test func runMasksAQuerySecretInAnInfrastructureError() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        scenario: the backend is not there
        live: true
        flow: echo.login
        inputs: { password: "\(Self.password)" }
        expect:
          outcome: done

        """.write(to: dir.appendingPathComponent("live.yaml"), atomically: true, encoding: .utf8)
        // Port 1 on loopback: nothing listens, so the connection is refused at once.
        try "echo_url: http://127.0.0.1:1\n".write(
            to: dir.appendingPathComponent("vars.yaml"), atomically: true, encoding: .utf8)
        let json = dir.appendingPathComponent("r.json").path
        let result = try await FlowSpecBinary.run(
            ["run", "--flows", Self.flows, "live.yaml", "--vars-file", "vars.yaml", "--report", "json=\(json)"], in: dir
        )
        #expect(result.status == 3, "\(result.all)")
        #expect(result.stdout.contains("127.0.0.1:1/login?user=qa&password=••••"), "\(result.stdout)")
        for text in [result.all, try String(contentsOfFile: json, encoding: .utf8)] {
            #expect(Self.leaked(text).isEmpty, "\(text)")
        }
    }

    /// A store file over `TokenStoreFile.maxBytes` is refused before it is read: a 100 MB one did not load in 150 s.
    @Test func execRefusesAStoreOverTheLimitBeforeReadingIt() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tokens.json").path
        #expect(FileManager.default.createFile(atPath: store, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: store))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let result = try await FlowSpecBinary.run([
            "exec", "echo.login", "--flows", Self.flows, "--base-url", "http://127.0.0.1:1",
            "--store", store, "--input", "password=\(Self.password)",
        ])
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.stderr.contains(
                "error: the token store \(store) holds 104857600 bytes, more than the 4 MiB a store may hold"),
            "\(result.stderr)")
    }
}
