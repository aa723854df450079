import Foundation
import Testing

/// A base URL the user gives is checked before anything is sent: a port past 65535 used to trap inside NIO with no
/// line and no report, and a query or fragment silently moved every request. Exit 2, naming the variable, never the
/// URL's credentials.
@Suite(.timeLimit(.minutes(3))) struct BadURLEndToEndTests {
    static let login = "Tests/EndToEndTests/Fixtures/flows/fixture/login.yaml"
    static let inputs = [
        "--input", "email=qa@example.com", "--input", "password=correct horse", "--input", "code=123456",
    ]

    @Test(arguments: [
        ("https://127.0.0.1:99999", "outside 1–65535"),
        ("https://127.0.0.1:8080/api?x=1", "cannot have a query"),
        ("https://127.0.0.1:8080#top", "cannot have a fragment"),
    ])
    func execRefusesABadBaseURLWithExit2(url: String, reason: String) async throws {
        let output = try await FlowSpecBinary.run(["exec", Self.login, "--base-url", url] + Self.inputs)
        #expect(output.status == 2, "\(output.all)")
        #expect(output.stderr.contains(reason), "\(output.all)")
    }

    @Test func aBadPortInAVariableIsExit2NamingTheVariableAndMaskingCredentials() async throws {
        let directory = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let vars = directory.appendingPathComponent("vars.yaml")
        try "fixture_url: http://qa:s3@127.0.0.1:99999\n".write(to: vars, atomically: true, encoding: .utf8)
        let output = try await FlowSpecBinary.run(["exec", Self.login, "--vars-file", vars.path] + Self.inputs)
        #expect(output.status == 2, "\(output.all)")
        #expect(output.stderr.contains("login.yaml:10:"), "\(output.all)")
        #expect(output.stderr.contains("vars.fixture_url"), "\(output.all)")
        #expect(output.stderr.contains("outside 1–65535"), "\(output.all)")
        #expect(!output.all.contains("s3@") && !output.all.contains("qa:"), "\(output.all)")
    }

    @Test func runRefusesABadPortInAURLVariableBeforeAnyScenario() async throws {
        let output = try await FlowSpecBinary.run([
            "run", "scenarios/live/repairminder-staff-password-login.yaml",
            "--var", "repairminder_url=https://127.0.0.1:99999",
        ])
        #expect(output.status == 2, "\(output.all)")
        #expect(output.stderr.contains("vars.repairminder_url"), "\(output.all)")
        #expect(output.stderr.contains("outside 1–65535"), "\(output.all)")
    }
}
