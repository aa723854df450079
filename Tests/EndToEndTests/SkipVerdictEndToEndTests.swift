import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A promise that could not be checked is skipped with its reason in every output — console, JUnit, TAP, JSON,
/// HTML — never passed: the shipped expiry scenario against the embedded sandbox's 15-minute tokens.
@Suite(.timeLimit(.minutes(5))) struct SkipVerdictEndToEndTests {
    static let expiry = "scenarios/live/repairminder-staff-expired-token.yaml"

    @Test func anExpiryScenarioThatCannotWaitIsSkippedInEveryReport() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("junit.xml"), json = dir.appendingPathComponent("report.json")
        let html = dir.appendingPathComponent("report.html"), tap = dir.appendingPathComponent("report.tap")
        let result = try await FlowSpecBinary.run([
            "run", Self.expiry, "--report", "junit=\(junit.path)", "--report", "json=\(json.path)",
            "--report", "html=\(html.path)", "--report", "tap=\(tap.path)",
        ])
        // Reported skipped, not failed — but a run whose only scenario was skipped checked nothing: exit 1, saying so.
        #expect(result.status == 1, "a run that checked nothing is not green: \(result.all)")
        #expect(result.stderr.contains("nothing was checked: every scenario was skipped"), "\(result.stderr)")
        #expect(result.stdout.contains("0 passed, 0 failed, 1 skipped"), "\(result.stdout)")
        #expect(result.stdout.contains("SKIP"), "\(result.stdout)")
        #expect(result.stdout.contains("--allow-wait 16m"), "the console says how to allow the wait: \(result.stdout)")

        let root = try #require(try XMLDocument(contentsOf: junit, options: []).rootElement())
        let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        #expect(cases.count == 1)
        let skipped = try #require(cases.first?.elements(forName: "skipped").first)
        #expect(skipped.attribute(forName: "message")?.stringValue?.contains("longer than this run may wait") == true)
        #expect(cases.first?.elements(forName: "failure").isEmpty == true)

        let tapText = try String(contentsOf: tap, encoding: .utf8)
        #expect(tapText.contains("# SKIP"), "\(tapText)")
        #expect(tapText.contains("--allow-wait"), "\(tapText)")

        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let scenario = try #require((document["scenarios"] as? [[String: Any]])?.first)
        #expect(scenario["status"] as? String == "skipped")
        #expect(
            (scenario["skipReason"] as? String)?.contains("would wait 15 min") == true,
            "\(scenario["skipReason"] ?? "")")

        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains("SKIPPED"))
        #expect(page.contains("longer than this run may wait"))
    }

    @Test func allowedToWaitTheSameScenarioIsRunNotSkipped() async throws {
        // The embedded sandbox's tokens live 15 minutes; a run allowed to wait less still skips, naming the need.
        let short = try await FlowSpecBinary.run(["run", Self.expiry, "--allow-wait", "5m"])
        #expect(short.status == 1, "only skipped: nothing was checked")
        #expect(short.stdout.contains("1 skipped"))
        #expect(short.stdout.contains("this run may wait (5 min)"), "\(short.stdout)")
    }

    @Test(arguments: ["soon", "-5m", "inf", "1e400s", "20 minutes", "99999d"])
    func aBadAllowWaitIsAUsageError(_ value: String) async throws {
        let result = try await FlowSpecBinary.run(["run", Self.expiry, "--allow-wait", value])
        #expect(result.status == 2, "\(value): \(result.all)")
        #expect(result.stderr.contains("--allow-wait"), "\(result.stderr)")
    }
}
