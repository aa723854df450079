import Foundation
import Testing

/// The issue's requirement: every report format is searched for the secret values a run used, and the test
/// fails if one appears. The run mixes a passing scenario, failing ones (so failure text, paths and exchanges
/// are rendered), a refresh with stored tokens, and — when the embedded sandbox starts — a live login.
@Suite(.timeLimit(.minutes(5))) struct ReportSecretsEndToEndTests {
    static let password = "Correct-Horse-Battery-9"
    static let code = "739214"
    static let access = "acc-SECRET-7f3a9b2c1d"
    static let refresh = "ref-SECRET-91d0e4aa5b"
    static let storedAccess = "old-access-SECRET-5e6f7a8b"
    static let storedRefresh = "old-refresh-SECRET-1c2d3e4f"
    static let rotatedAccess = "new-access-SECRET-9a8b7c6d"
    static let rotatedRefresh = "new-refresh-SECRET-0f1e2d3c"
    /// The embedded sandbox's default staff password (docs/sandbox.md), used by the live scenario.
    static let sandboxPassword = "correct-horse"

    static var secrets: [String] {
        [password, code, access, refresh, storedAccess, storedRefresh, rotatedAccess, rotatedRefresh, sandboxPassword]
    }

    static func login(name: String, outcome: String, verifyCode: String = code) -> String {
        """
        scenario: \(name)
        tags: [secrets]
        flow: repairminder.staff-password-2fa
        inputs:
          email: staff@example.com
          password: \(password)
          code: "\(code)"
        exchanges:
          - request:
              method: POST
              path: /api/auth/login
              json: { email: staff@example.com, password: \(password) }
            response:
              status: 200
              json: { requiresTwoFactor: true, userId: u-1, email: staff@example.com }
          - request:
              method: POST
              path: /api/auth/2fa/request
              json: { userId: u-1, email: staff@example.com }
            response:
              status: 200
              json: { message: "2FA code sent to your email" }
          - request:
              method: POST
              path: /api/auth/2fa/verify
              json: { userId: u-1, code: "\(verifyCode)" }
            response:
              status: 200
              json:
                token: \(access)
                refreshToken: \(refresh)
                expiresIn: 900
                user: { id: u-1, email: staff@example.com, role: admin, company_id: c-1, is_active: 1 }
        expect:
          outcome: \(outcome)
          store:
            staff.access_token: \(access)
            staff.refresh_token: \(refresh)

        """
    }

    static let refreshScenario = """
        scenario: a 401 on /me refreshes with the stored token and stores the rotated pair
        tags: [secrets]
        flow: repairminder.me
        inputs: {}
        store: { staff: { access_token: \(storedAccess), refresh_token: \(storedRefresh) } }
        exchanges:
          - request: { method: GET, path: /api/auth/me, headers: { Authorization: "Bearer \(storedAccess)" } }
            response: { status: 401, json: { error: "expired" } }
          - request: { method: POST, path: /api/auth/refresh, json: { refreshToken: \(storedRefresh) } }
            response: { status: 200, json: { token: \(rotatedAccess), refreshToken: \(rotatedRefresh), expiresIn: 900 } }
          - request: { method: GET, path: /api/auth/me, headers: { Authorization: "Bearer \(rotatedAccess)" } }
            response: { status: 200, json: { user: { id: u-1, email: staff@example.com } } }
        expect:
          outcome: ok
          store:
            staff.access_token: \(rotatedAccess)
            staff.refresh_token: \(rotatedRefresh)

        """

    static let formats = [
        "junit": "junit.xml", "json": "report.json", "tap": "report.tap", "html": "report.html",
        "coverage": "coverage.json",
    ]

    @Test func noReportFormatShowsASecret() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        let files = [
            "pass.yaml": Self.login(name: "staff signs in with password and 2FA code", outcome: "authenticated"),
            "fail-outcome.yaml": Self.login(
                name: "staff sign-in expected to be rejected (fails on purpose)", outcome: "rejected"),
            "fail-unscripted.yaml": Self.login(
                name: "the verify request matches no scripted exchange (fails on purpose)",
                outcome: "authenticated", verifyCode: "482913"),
            "refresh.yaml": Self.refreshScenario,
        ]
        for (name, text) in files {
            try text.write(to: scenarios.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let live = FlowSpecBinary.root.appendingPathComponent("scenarios/live/repairminder-staff-password-login.yaml")
        try FileManager.default.copyItem(at: live, to: scenarios.appendingPathComponent("live.yaml"))

        var arguments = [
            "run", "scenarios", "--flows", FlowSpecBinary.root.appendingPathComponent("flows").path, "--verbose",
            "--jobs", "1",
        ]
        for (kind, file) in Self.formats.sorted(by: { $0.key < $1.key }) {
            arguments += ["--report", "\(kind)=\(file)"]
        }
        let result = try await FlowSpecBinary.run(arguments, in: dir)
        #expect(result.status == 1, "two scenarios fail on purpose: \(result.all)")
        #expect(
            result.all.contains("3 passed, 2 failed"),
            "the live scenario runs against the embedded sandbox: \(result.all)")
        // The detector has teeth: the scenario files themselves hold every scripted secret.
        let sources = files.values.joined()
        for secret in Self.secrets where secret != Self.sandboxPassword { #expect(sources.contains(secret)) }
        // Not vacuous: the secrets were really sent and shown masked.
        #expect(result.stdout.contains("\"password\":\"••••\""))
        #expect(result.stdout.contains("Bearer ••••"))
        #expect(result.stdout.contains("expected outcome `rejected`, got `authenticated`"))

        var outputs = ["standard output": result.stdout, "standard error": result.stderr]
        for (kind, file) in Self.formats {
            let path = dir.appendingPathComponent(file).path
            let data = FileManager.default.contents(atPath: path)
            #expect(data != nil, "--report \(kind) wrote no \(file)")
            #expect((data?.count ?? 0) > 0, "--report \(kind) wrote an empty \(file)")
            outputs["--report \(kind)"] = String(decoding: data ?? Data(), as: UTF8.self)
        }
        // The failure details reached the reports, so their masking was really exercised.
        #expect(outputs["--report junit"]?.contains("<failure") == true)
        #expect(outputs["--report json"]?.contains("\"refreshToken\\\":\\\"••••\\\"") == true)
        #expect(outputs["--report tap"]?.contains("not ok") == true)

        let jwt = try Regex(#"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"#)
        for (where_, text) in outputs {
            for secret in Self.secrets {
                #expect(!text.contains(secret), "\(where_) shows the secret \(secret)")
            }
            #expect(text.firstMatch(of: jwt) == nil, "\(where_) shows a JWT")
        }
    }
}
