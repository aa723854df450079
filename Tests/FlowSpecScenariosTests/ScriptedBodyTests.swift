import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// A scripted response is read like a live one: `json:` is JSON, a `body:` follows its declared `Content-Type`.
@Suite(.timeLimit(.minutes(5))) struct ScriptedBodyTests {
    static let flow = """
        flow: t.code
        start: fetch
        states:
          fetch:
            request: { method: GET, path: /code }
            on:
              - when: body == "012345"
                goto: text
              - when: body == 12345
                goto: number
              - when: body.code == 12345
                goto: field
              - else: true
                goto: other
          text: { end: text, success: true }
          number: { end: number, success: true }
          field: { end: field, success: true }
          other: { end: other, success: false }
        """

    /// Runs one scenario per (response, expected outcome) in a temporary folder; returns each one's failures.
    func run(_ cases: [(response: String, outcome: String)]) async throws -> (failures: [[String]], warnings: [String])
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("flows"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("scenarios"), withIntermediateDirectories: true)
        try Self.flow.write(to: folder.appendingPathComponent("flows/code.yaml"), atomically: true, encoding: .utf8)
        for (i, c) in cases.enumerated() {
            let scenario = """
                scenario: case \(i)
                flow: t.code
                exchanges:
                  - request: { method: GET, path: /code }
                    response: \(c.response)
                expect: { outcome: \(c.outcome) }
                """
            try scenario.write(
                to: folder.appendingPathComponent("scenarios/case-\(i).yaml"), atomically: true, encoding: .utf8)
        }
        let suite = SuiteLoader.load(
            paths: [folder.appendingPathComponent("scenarios").path],
            flowsFolder: folder.appendingPathComponent("flows").path)
        #expect(suite.diagnostics.errors.map(\.description) == [])
        #expect(suite.scenarios.count == cases.count)
        let reports = await ScenarioRunner(specs: suite.specs, jobs: 1).run(
            suite.scenarios.sorted { $0.name < $1.name })
        return (reports.map(\.failures), suite.diagnostics.items.filter { $0.severity == .warning }.map(\.message))
    }

    @Test func aTextPlainCodeIsAStringAndOnlyJSONIsParsed() async throws {
        let cases: [(response: String, outcome: String)] = [
            (#"{ status: 200, headers: { Content-Type: text/plain }, body: "012345" }"#, "text"),
            (#"{ status: 200, headers: { Content-Type: "text/plain; charset=utf-8" }, body: "012345" }"#, "text"),
            (#"{ status: 200, body: "012345" }"#, "text"),
            (#"{ status: 200, body: "12345" }"#, "other"),
            (#"{ status: 200, json: 12345 }"#, "number"),
            (#"{ status: 200, json: { code: 12345 } }"#, "field"),
            (
                #"{ status: 200, headers: { Content-Type: application/problem+json }, body: '{"code": 12345}' }"#,
                "field"
            ),
            (
                #"{ status: 200, headers: { content-type: "Application/JSON; charset=utf-8" }, body: "12345" }"#,
                "number"
            ),
            (#"{ status: 200, headers: { Content-Type: application/json }, body: "012345" }"#, "text"),
        ]
        let (failures, _) = try await run(cases)
        for (i, problems) in failures.enumerated() {
            #expect(problems == [], "case \(i): \(cases[i].response)")
        }
    }

    @Test func jsonWithADeclaredTextTypeIsTextAndWarned() async throws {
        let (failures, warnings) = try await run([
            (#"{ status: 200, headers: { Content-Type: text/plain }, json: 12345 }"#, "other")
        ])
        #expect(failures == [[]])
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("not a JSON media type") == true)
    }
}
