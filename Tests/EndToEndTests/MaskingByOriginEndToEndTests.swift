import Foundation
import Testing

/// Secrets are masked by where they come from, through the CLI, on the console and in every report: a one-letter
/// password, two- and three-letter store tokens, and a code read from a text body and sent on as a number.
/// What is not a secret stays readable: `token_type: bearer`, `expires_in: 3600`, and text that merely
/// contains a short secret's letters.
@Suite(.timeLimit(.minutes(5))) struct MaskingByOriginEndToEndTests {
    @Test func shortAndNumericSecretsAreMaskedEverywhereAndNothingElseIs() async throws {
        let fixtures = FlowSpecBinary.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/masking")
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("r.json").path, html = dir.appendingPathComponent("r.html").path
        let junit = dir.appendingPathComponent("r.xml").path
        let result = try await FlowSpecBinary.run(
            [
                "run", "--flows", "flows", "origin.yaml", "--verbose",
                "--report", "json=\(json)", "--report", "html=\(html)", "--report", "junit=\(junit)",
            ],
            in: fixtures)
        #expect(result.status == 0, "\(result.all)")
        // Not vacuous: the values were sent and shown, masked.
        #expect(result.stdout.contains(#"{"email":"qa@example.com","password":"••••"}"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"{"code":"••••"}"#), "\(result.stdout)")
        #expect(result.stdout.contains("/verify?otp=••••&lang=en"), "\(result.stdout)")
        #expect(
            result.stdout.contains(#""refresh_token":"••••""#) && result.stdout.contains(#""access_token":"••••""#),
            "\(result.stdout)")
        let reports = try [json, html, junit].map { try String(contentsOfFile: $0, encoding: .utf8) }
        for text in [result.stdout, result.stderr] + reports {
            #expect(!text.contains("726603"), "the code is shown")
            #expect(!text.contains(#"password":"x""#) && !text.contains(#"password\":\"x\""#), "the password is shown")
            #expect(!text.contains(#""r1""#) && !text.contains(#"\"r1\""#), "a store token is shown")
            #expect(!text.contains(#""new""#) && !text.contains(#"\"new\""#), "a store token is shown")
        }
        for text in [result.stdout, reports[0]] {
            #expect(
                text.contains("bearer") && text.contains("3600") && text.contains("Max"),
                "over-masked: \(text.prefix(2000))")
        }
    }
}
