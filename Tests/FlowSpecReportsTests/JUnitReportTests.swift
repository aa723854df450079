import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation
import Testing

@testable import FlowSpecReports

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Hand-built scenario reports covering every status a report shows.
enum SampleRun {
    static let specs = SpecSet(sources: [
        "login.yaml": """
        flow: repairminder.login
        start: login
        states:
          login:
            request: { method: POST, path: /api/auth/login }
            on:
              - when: status == 401
                goto: rejected
              - else: true
                goto: ok
          ok: { end: ok, success: true }
          rejected: { end: rejected, success: false }
        """
    ])

    static let start = Date(timeIntervalSince1970: 1_795_255_200) // 2026-11-21T10:00:00Z
    static let nasty =
        "expected outcome `authenticated`, got `rejected`: <&>\"' in the body\nsecond line \u{1B}[31mred\u{1B}[0m"

    static func exchange(status: Int? = 200) -> ExchangeRecord {
        let request = HTTPRequest(
            method: "POST", baseURL: nil, path: "/api/auth/login", headers: [("Content-Type", "application/json")],
            json: .object(["email": .string("staff@example.com"), "password": .string("hunter22")]))
        let response = status.map {
            HTTPResponse(
                status: $0, headers: [("Content-Type", "application/json")], body: Data(#"{"error":"nope"}"#.utf8))
        }
        let failure =
            status == nil
            ? TransportError(.refused, url: "http://127.0.0.1:9/api/auth/login", cause: "connection refused") : nil
        let entry = ExchangeLog.Entry(
            flow: "repairminder.login", state: "login", request: request, response: response, failure: failure,
            run: 0, durationSeconds: 0.0004)
        return ExchangeRecord(entry, redactor: Redactor())
    }

    static var passed: ScenarioReport {
        ScenarioReport(
            name: "staff logs in", file: "scenarios/repairminder/login.yaml", tags: ["smoke", "staff"], status: .passed,
            failures: [], paths: [(flow: "repairminder.login", path: ["login", "ok"])], lastExchange: nil,
            durationSeconds: 0.0123, infrastructureFailure: false, skipReason: nil,
            runs: [
                FlowRunTrace(
                    id: 0, flow: specs.compiled["repairminder.login"]!, parent: nil,
                    visits: [.init(state: 0, edge: 1, falseGuards: [0]), .init(state: 1)],
                    outcome: "ok", success: true)
            ],
            exchanges: [exchange()])
    }

    static var failed: ScenarioReport {
        ScenarioReport(
            name: "wrong # password \\ rejected", file: "scenarios/repairminder/wrong.yaml", tags: [], status: .failed,
            failures: [nasty, "store staff.access_token should be absent"],
            paths: [(flow: "repairminder.login", path: ["login", "rejected"])],
            lastExchange: "POST /api/auth/login → 401 {\"error\":\"nope\"}", durationSeconds: 1.5,
            infrastructureFailure: false, skipReason: nil, exchanges: [exchange(status: 401)])
    }

    static var skipped: ScenarioReport {
        ScenarioReport(
            name: "live login", file: "scenarios/live/login.yaml", tags: ["live"], status: .skipped, failures: [],
            paths: [],
            lastExchange: nil, durationSeconds: 0, infrastructureFailure: false,
            skipReason: "live scenario: no backend (give --var base_url=…)\nsecond line")
    }

    static var infrastructure: ScenarioReport {
        ScenarioReport(
            name: "backend down", file: "scenarios/live/down.yaml", tags: ["live"], status: .failed,
            failures: ["POST http://127.0.0.1:9/api/auth/login: connection refused"], paths: [], lastExchange: nil,
            durationSeconds: 0.2, infrastructureFailure: true, skipReason: nil, exchanges: [exchange(status: nil)])
    }

    static func repeated(_ n: Int) -> ScenarioReport {
        var report = passed
        report.repetition = n
        return report
    }

    static func record(_ reports: [ScenarioReport], start: Date = start, duration: Double = 2.25) -> RunRecord {
        RunRecord(reports: reports, specs: specs, startedAt: start, durationSeconds: duration, toolVersion: "0.1.0")
    }

    static var all: RunRecord { record([passed, failed, skipped, infrastructure]) }
}

@Suite(.timeLimit(.minutes(5))) struct JUnitReportTests {
    func parse(_ text: String) throws -> XMLElement {
        try #require(try XMLDocument(xmlString: text, options: []).rootElement())
    }

    func attribute(_ element: XMLElement, _ name: String) -> String? { element.attribute(forName: name)?.stringValue }

    func elements(_ element: XMLElement, _ name: String) -> [XMLElement] { element.elements(forName: name) }

    @Test func totalsAndSuitesPerFolder() throws {
        let xml = JUnitReport.render(SampleRun.all, hostname: "ci-1")
        #expect(
            xml.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"flowspec\" tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\" time=\"2.250\">"
            ))
        let root = try parse(xml)
        let suites = elements(root, "testsuite")
        #expect(suites.map { attribute($0, "name") } == ["scenarios/repairminder", "scenarios/live"])
        let repair = suites[0], live = suites[1]
        #expect(
            [
                attribute(repair, "tests"), attribute(repair, "failures"), attribute(repair, "errors"),
                attribute(repair, "skipped"),
            ] == ["2", "1", "0", "0"])
        #expect(
            [
                attribute(live, "tests"), attribute(live, "failures"), attribute(live, "errors"),
                attribute(live, "skipped"),
            ] == ["2", "0", "1", "1"])
        #expect(attribute(repair, "time") == "1.512")
        #expect(attribute(repair, "timestamp") == "2026-11-21T10:00:00")
        #expect(attribute(repair, "hostname") == "ci-1")
    }

    @Test func testcaseAttributes() throws {
        let root = try parse(JUnitReport.render(SampleRun.all, hostname: "ci-1"))
        let first = try #require(elements(elements(root, "testsuite")[0], "testcase").first)
        #expect(attribute(first, "name") == "staff logs in")
        #expect(attribute(first, "classname") == "scenarios.repairminder.login")
        #expect(attribute(first, "file") == "scenarios/repairminder/login.yaml")
        #expect(attribute(first, "time") == "0.012")
        #expect(first.childCount == 0)
    }

    @Test func failureKeepsEveryCharacterAndStripsControls() throws {
        let xml = JUnitReport.render(SampleRun.all, hostname: "ci-1")
        #expect(!xml.contains("\u{1B}"))
        let root = try parse(xml)
        let testcase = elements(elements(root, "testsuite")[0], "testcase")[1]
        #expect(attribute(testcase, "name") == "wrong # password \\ rejected")
        let failure = try #require(elements(testcase, "failure").first)
        #expect(attribute(failure, "type") == "expectation")
        #expect(attribute(failure, "message") == "expected outcome `authenticated`, got `rejected`: <&>\"' in the body")
        let text = try #require(failure.stringValue)
        #expect(
            text.contains(
                "- expected outcome `authenticated`, got `rejected`: <&>\"' in the body\n  second line \\u001B[31mred\\u001B[0m"
            ))
        #expect(text.contains("- store staff.access_token should be absent"))
        #expect(text.contains("path (repairminder.login): login → rejected"))
        #expect(text.contains("last exchange: POST /api/auth/login → 401 {\"error\":\"nope\"}"))
        let out = try #require(elements(testcase, "system-out").first?.stringValue)
        #expect(out.contains("POST /api/auth/login  (repairminder.login · login)"))
        #expect(out.contains("← 401"))
        #expect(out.contains("••••"), "the password in the request body is masked by key")
        #expect(!out.contains("hunter22"))
    }

    @Test func infrastructureIsAnErrorAndSkippedHasItsReason() throws {
        let root = try parse(JUnitReport.render(SampleRun.all, hostname: "ci-1"))
        let live = elements(elements(root, "testsuite")[1], "testcase")
        let skipped = try #require(elements(live[0], "skipped").first)
        #expect(attribute(skipped, "message") == "live scenario: no backend (give --var base_url=…)")
        #expect(elements(live[1], "failure").isEmpty)
        let error = try #require(elements(live[1], "error").first)
        #expect(attribute(error, "type") == "infrastructure")
        #expect(attribute(error, "message") == "POST http://127.0.0.1:9/api/auth/login: connection refused")
        #expect(elements(live[1], "system-out").first?.stringValue?.contains("← no response: ") == true)
    }

    @Test func repeatedRunsHaveUniqueNames() throws {
        let root = try parse(
            JUnitReport.render(SampleRun.record([SampleRun.repeated(1), SampleRun.repeated(2)]), hostname: "h"))
        let names = elements(elements(root, "testsuite")[0], "testcase").map { attribute($0, "name") }
        #expect(names == ["staff logs in (run 1 of 2)", "staff logs in (run 2 of 2)"])
    }

    @Test func emptyRun() throws {
        let xml = JUnitReport.render(SampleRun.record([], duration: 0), hostname: "h")
        #expect(
            xml
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"flowspec\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0.000\"/>\n"
        )
        _ = try parse(xml)
    }

    @Test func escaping() {
        #expect(Markup.attribute("a&b<c>d\"e'f\ng\th\rj") == "a&amp;b&lt;c&gt;d&quot;e&#39;f&#10;g&#9;h&#13;j")
        #expect(
            Markup.escape("a&b<c>\nd\u{0}e\u{7}f\u{FFFE}\"'") == "a&amp;b&lt;c&gt;\nd\\u0000e\\u0007f\\uFFFE&quot;&#39;"
        )
        #expect(Markup.escape("••••  ✓ 日本 😀") == "••••  ✓ 日本 😀")
    }

    @Test func suiteAndClassNames() {
        #expect(JUnitReport.suiteName("scenarios/repairminder/a.yaml") == "scenarios/repairminder")
        #expect(JUnitReport.suiteName("a.yaml") == ".")
        #expect(JUnitReport.className("./scenarios/x/a.b.yaml") == "scenarios.x.a.b")
        #expect(JUnitReport.className("/tmp/s/a.yml") == "tmp.s.a")
    }
}
