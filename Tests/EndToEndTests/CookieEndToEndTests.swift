import Foundation
import HostileBackend
import Testing

/// A login step kept in a session cookie (Flask-Security keeps two-factor state in Flask's signed `session` cookie
/// between `POST /login` and `POST /tf-validate`): the run's cookie jar sends it back, `--verbose` shows it sent,
/// and its value is masked like every credential.
@Suite(.timeLimit(.minutes(5))) struct CookieEndToEndTests {
    static let cookie = "eyJ0Zl9zdGF0ZSI6InJlYWR5In0.Zx9Qkw.s3cr3t-cookie-value"

    @Test func aCookieFromTheFirstStepIsSentOnTheSecond() async throws {
        let server = try HostileServer { request in
            if request.path.hasPrefix("/login") {
                let body = #"{"tf_required": true}"#
                return [
                    .send(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nSet-Cookie: session=\(Self.cookie); HttpOnly; Path=/\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    )
                ]
            }
            let carried = request.head.lowercased().contains("\r\ncookie: session=\(Self.cookie.lowercased())")
            let status = carried ? "200 OK" : "401 Unauthorized"
            return [.send("HTTP/1.1 \(status)\r\nContent-Length: 0\r\n\r\n")]
        }
        defer { server.stop() }
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/app"), withIntermediateDirectories: true)
        try """
        flow: app.login
        defaults:
          base_url: "${vars.api_url}"
        start: login
        states:
          login:
            request: { method: POST, path: /login, json: { email: qa@example.com } }
            on:
              - when: status == 200 && body.tf_required == true
                goto: second
          second:
            request: { method: POST, path: /tf-validate, json: { code: "123456" } }
            on:
              - when: status == 200
                goto: in
              - when: status == 401
                goto: lost
          in: { end: signed_in, success: true }
          lost: { end: lost_the_cookie, success: false }
        """.write(to: dir.appendingPathComponent("flows/app/login.yaml"), atomically: true, encoding: .utf8)
        try
            "scenario: the second step carries the first step's cookie\nlive: true\nflow: app.login\nexpect: { outcome: signed_in }\n"
            .write(to: dir.appendingPathComponent("login.yaml"), atomically: true, encoding: .utf8)
        let result = try await FlowSpecBinary.run(
            ["run", "login.yaml", "--flows", "flows", "--var", "api_url=\(server.url)", "--verbose"], in: dir)
        #expect(result.status == 0, "\(result.all)")
        // The second request is shown with the cookie it carried — masked whole, as a credential header is.
        let second = try #require(result.stdout.range(of: "POST \(server.url)/tf-validate"), "\(result.stdout)")
        #expect(result.stdout[second.upperBound...].contains("Cookie: ••••"), "\(result.stdout)")
        #expect(!result.all.contains("s3cr3t-cookie-value"), "\(result.all)")
        #expect(server.requests.count == 2)
    }
}
