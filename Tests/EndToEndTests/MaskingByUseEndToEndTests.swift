import Foundation
import Testing

/// Run variables are masked by where they go, not by words inside their names, through the built binary, on the
/// console and in the JSON, JUnit and HTML reports: `code_email` is an address and stays readable (it was masked
/// everywhere because its name holds `code`); `qa_login_value`, fed to a `secret: true` input, and
/// `authenticator_seed`, fed to `totp()`, are masked — in the scenario that uses them and in another scenario of the
/// run that only sends them as a note; `admin_password` is masked by its name. The values come from each source a
/// run variable can come from: `--vars-file`, `--var` and `FLOWSPEC_VAR_*`.
@Suite(.timeLimit(.minutes(5))) struct MaskingByUseEndToEndTests {
    static let fixtures = FlowSpecBinary.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/masking-by-use")
    static let secrets = ["plain-Lemon-42", "JBSWY3DPEHPK3PXP", "Swordfish-99"]

    @Test func variablesAreMaskedByUseAndAnAddressNamedCodeEmailIsShown() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let reports = ["json", "junit", "html"].map { (kind: $0, path: dir.appendingPathComponent("r.\($0)").path) }
        let result = try await FlowSpecBinary.run(
            [
                "run", "--flows", "flows", "login.yaml", "profile.yaml", "--verbose",
                "--vars-file", "vars.yaml", "--var", "qa_login_value=plain-Lemon-42",
                "--var", "admin_password=Swordfish-99",
            ]
                + reports.flatMap { ["--report", "\($0.kind)=\($0.path)"] },
            in: Self.fixtures, environment: ["FLOWSPEC_VAR_authenticator_seed": "JBSWY3DPEHPK3PXP"])
        // Both scenarios fail on purpose (`request_count: 2`), so every report carries their exchanges.
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.contains("0 passed, 2 failed"), "\(result.stdout)")
        // Not vacuous: the values were sent and shown, masked.
        #expect(result.stdout.contains(#""password":"••••","second_factor":"••••""#), "\(result.stdout)")
        #expect(result.stdout.contains(#""note":"•••• and •••• and ••••""#), "\(result.stdout)")
        #expect(result.stdout.contains(#""saved":"••••""#), "\(result.stdout)")
        // A request field named `code_email` is not a credential either: its last word says what it is.
        #expect(result.stdout.contains(#""code_email":"qa@example.com""#), "\(result.stdout)")
        let texts =
            try [("stdout", result.stdout), ("stderr", result.stderr)]
            + reports.map { ($0.kind, try String(contentsOfFile: $0.path, encoding: .utf8)) }
        for (name, text) in texts {
            for secret in Self.secrets {
                #expect(!text.contains(secret), "\(secret) is shown in \(name): \(text.prefix(3000))")
            }
        }
        for (name, text) in texts where ["stdout", "json", "junit"].contains(name) {
            #expect(
                text.contains("qa@example.com"), "the address in code_email is masked in \(name): \(text.prefix(3000))")
        }
    }

    /// A value an input command fetches is a code: masked though the input it answers is a plain `type: string`.
    @Test func aValueFetchedByAnInputCommandIsMasked() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("r.xml").path
        let result = try await FlowSpecBinary.run(
            [
                "run", "--flows", "flows", "fetched.yaml", "--verbose", "--var", "code_email=qa@example.com",
                "--report", "junit=\(junit)",
            ], in: Self.fixtures)
        #expect(result.status == 1, "fails on purpose: \(result.all)")
        #expect(
            result.stdout.contains(#""note":"••••""#) && result.stdout.contains(#""saved":"note •••• saved""#),
            "\(result.stdout)")
        for text in [result.stdout, result.stderr, try String(contentsOfFile: junit, encoding: .utf8)] {
            #expect(!text.contains("Kq7-fetched-42"), "\(text.prefix(3000))")
        }
    }
}
