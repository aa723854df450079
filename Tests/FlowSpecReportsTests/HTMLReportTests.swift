import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation
import TestSupport
import Testing

@testable import FlowSpecReports

@Suite(.timeLimit(.minutes(5))) struct HTMLReportTests {
    static let flowYAML = """
        flow: t.login
        title: Password login
        inputs: { code: { type: code } }
        start: login
        states:
          login:
            request: { method: POST, path: /api/auth/login }
            unreachable: offline
            on:
              - when: status == 200
                goto: ask
              - when: status == 401
                goto: rejected
          ask: { input: code, goto: verify }
          verify:
            request: { method: POST, path: /api/auth/2fa/verify }
            on:
              - when: status == 200
                goto: ok
              - when: status == 401
                goto: ask
          ok: { end: authenticated, success: true }
          rejected: { end: rejected, success: false }
          offline: { end: offline, success: false }
        """

    static func exchange(_ state: String, run: Int, visit: Int, path: String, status: Int?, body: String?)
        -> ExchangeRecord
    {
        // ExchangeRecord is built from a log entry and a redactor; tests set the masked fields directly.
        var record = ExchangeRecord(
            ExchangeLog.Entry(
                flow: "t.login", state: state,
                request: HTTPRequest(
                    method: "POST", baseURL: nil, path: path, headers: [("Content-Type", "application/json")]),
                response: nil, failure: nil, run: run, visit: visit, durationSeconds: 0.0123),
            redactor: Redactor())
        record.requestBody = "{\"email\":\"qa@example.com\",\"password\":\"•••\"}"
        record.status = status
        record.responseHeaders = status == nil ? [] : [.init("Content-Type", "application/json")]
        record.responseBody = body
        record.failure = status == nil ? "connection refused" : nil
        return record
    }

    static func record() throws -> RunRecord {
        let specs = try TestSpecs.load(["flows/login.yaml": flowYAML])
        let login = specs.compiled["t.login"]!
        let passed = ScenarioReport(
            name: "wrong code then right code", file: "scenarios/retry.yaml", tags: ["smoke", "2fa"], status: .passed,
            failures: [], paths: [(flow: "t.login", path: ["login", "ask", "verify", "ask", "verify", "ok"])],
            lastExchange: nil, durationSeconds: 0.004, infrastructureFailure: false, skipReason: nil,
            runs: [
                FlowRunTrace.named(
                    id: 0, login, parent: nil,
                    [
                        .init(state: "login", edge: 0), .init(state: "ask", edge: 0),
                        .init(state: "verify", edge: 1, falseGuards: [0]),
                        .init(state: "ask", edge: 0), .init(state: "verify", edge: 0), .init(state: "ok"),
                    ], outcome: "authenticated", success: true)
            ],
            exchanges: [
                exchange(
                    "login", run: 0, visit: 0, path: "/api/auth/login", status: 200,
                    body: "{\"requiresTwoFactor\":true,\"userId\":\"u-1\"}"),
                exchange(
                    "verify", run: 0, visit: 2, path: "/api/auth/2fa/verify", status: 401,
                    body: "{\"error\":\"Invalid code\"}"),
                exchange(
                    "verify", run: 0, visit: 4, path: "/api/auth/2fa/verify", status: 200, body: "{\"token\":\"•••\"}"),
            ])
        let failed = ScenarioReport(
            name: "<script>alert(1)</script> unhandled", file: "scenarios/broken.yaml", tags: [], status: .failed,
            failures: ["unhandled response: POST /api/auth/login → 500 (no transition matched) & more <b>"],
            paths: [(flow: "t.login", path: ["login"])], lastExchange: nil, durationSeconds: 0.002,
            infrastructureFailure: false, skipReason: nil,
            runs: [
                FlowRunTrace.named(
                    id: 0, login, parent: nil, [.init(state: "login", falseGuards: [0, 1])],
                    outcome: "unhandled", success: false)
            ],
            exchanges: [
                exchange(
                    "login", run: 0, visit: 0, path: "/api/auth/login", status: 500,
                    body: "{\"html\":\"<h1>boom</h1>\"}")
            ])
        let infra = ScenarioReport(
            name: "backend down", file: "scenarios/down.yaml", tags: ["live"], status: .failed,
            failures: ["no response from the backend: connection refused"], paths: [], lastExchange: nil,
            durationSeconds: 0.5,
            infrastructureFailure: true, skipReason: nil,
            runs: [
                FlowRunTrace.named(
                    id: 0, login, parent: nil, [.init(state: "login", edge: 2), .init(state: "offline")],
                    outcome: "offline", success: false)
            ],
            exchanges: [exchange("login", run: 0, visit: 0, path: "/api/auth/login", status: nil, body: nil)])
        let skipped = ScenarioReport(
            name: "needs a live backend", file: "scenarios/live.yaml", tags: ["live"], status: .skipped, failures: [],
            paths: [],
            lastExchange: nil, durationSeconds: 0, infrastructureFailure: false,
            skipReason: "missing variable repairminder_url")
        return RunRecord(
            reports: [passed, failed, infra, skipped], specs: specs,
            startedAt: Date(timeIntervalSince1970: 1_795_255_200), durationSeconds: 0.75, toolVersion: "0.1.0")
    }

    @Test func isSelfContained() throws {
        let html = HTMLReport.render(try Self.record())
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for forbidden in ["http://", "https://", "<script src", "<link", "@import", "url(", "src=\""] {
            #expect(!html.contains(forbidden), "found \(forbidden)")
        }
        #expect(html.contains("<style>") && html.contains("</html>\n"))
    }

    @Test func headerHasSummaryStartTimeDurationAndVersion() throws {
        let html = HTMLReport.render(try Self.record())
        #expect(
            html.contains(
                "1 passed</span>, <span class=\"count failed\">2 failed</span>, <span class=\"count skipped\">1 skipped"
            ))
        #expect(html.contains("<title>FlowSpec report: 1 passed, 2 failed, 1 skipped</title>"))
        #expect(html.contains("started 2026-11-21 10:00:00 UTC"))
        #expect(html.contains("took 750 ms"))
        #expect(html.contains("flowspec 0.1.0"))
        // The filter: all / failed / skipped.
        for filter in ["all", "failed", "skipped"] { #expect(html.contains("<label for=\"filter-\(filter)\">")) }
    }

    @Test func everyScenarioHasASectionWithFailuresFirstAndOpen() throws {
        let html = HTMLReport.render(try Self.record())
        #expect(Self.count("<details class=\"scenario ", in: html) == 4)
        let failed = try #require(html.range(of: "class=\"scenario status-failed\""))
        let passed = try #require(html.range(of: "class=\"scenario status-passed\""))
        #expect(failed.lowerBound < passed.lowerBound)
        #expect(
            html.contains(
                "id=\"scenario-2\" data-search=\"&lt;script&gt;alert(1)&lt;/script&gt; unhandled scenarios/broken.yaml\" open>"
            ))
        #expect(
            html.contains(
                "id=\"scenario-1\" data-search=\"wrong code then right code scenarios/retry.yaml smoke 2fa\">"))
        #expect(html.contains("<span class=\"tag\">smoke</span>"))
        #expect(html.contains("<span class=\"file\">scenarios/retry.yaml</span>"))
    }

    @Test func failuresAreExplainedAndInfrastructureLooksDifferent() throws {
        let html = HTMLReport.render(try Self.record())
        #expect(
            html.contains(
                "<pre class=\"failure\">unhandled response: POST /api/auth/login → 500 (no transition matched) &amp; more &lt;b&gt;</pre>"
            ))
        #expect(html.contains("<div class=\"problem promise\">"))
        #expect(html.contains("<div class=\"problem infra\"><h3>Infrastructure failure"))
        #expect(html.contains("class=\"scenario status-failed infra\""))
        #expect(html.contains(">INFRA</span>"))
        #expect(
            html.contains("<div class=\"problem skipped\"><h3>Skipped</h3><p>missing variable repairminder_url</p>"))
        // The failure index links to the failed sections.
        #expect(html.contains("<a href=\"#scenario-2\">"))
        #expect(html.contains("<a href=\"#scenario-3\">"))
    }

    /// Three runs of one flow: its diagram is in the page once, as a symbol; each run draws only its path over it.
    @Test func eachFlowIsDrawnOncePerReport() throws {
        let html = HTMLReport.render(try Self.record())
        #expect(Self.count("<symbol id=\"fs-flow-1\"", in: html) == 1)
        #expect(Self.count("<symbol ", in: html) == 1, "one flow, one symbol")
        #expect(Self.count("<use href=\"#fs-flow-1\"/>", in: html) == 3, "every run reuses it")
        // The symbol carries every state; a run that never reached `rejected` does not draw it again.
        let retry = try Self.section("scenario-1", in: html)
        #expect(!retry.contains("data-state=\"rejected\""))
        #expect(Self.count("data-state=\"rejected\"", in: html) == 1, "drawn once, in the symbol")
    }

    @Test func diagramsHighlightThePathTaken() throws {
        let html = HTMLReport.render(try Self.record())
        #expect(Self.count("<svg class=\"fs-diagram fs-has-path\"", in: html) == 3)
        // Retry scenario: verify → ask taken once, ask → verify twice, ended in ok.
        let retry = try Self.section("scenario-1", in: html)
        #expect(retry.contains("class=\"fs-node fs-kind-end fs-visited fs-end-ok\" data-state=\"ok\""))
        #expect(retry.contains("class=\"fs-edge fs-edge-next fs-taken\" data-edge=\"ask#0\""))
        #expect(retry.contains(">×2</text>"))
        #expect(retry.contains(">2,4</text>"))
        // Unhandled: the run stopped in login.
        let unhandled = try Self.section("scenario-2", in: html)
        #expect(unhandled.contains("fs-failed-at\" data-state=\"login\""))
        #expect(unhandled.contains("✗ stopped here"))
        #expect(unhandled.contains("false first: <code>status == 200</code>, <code>status == 401</code>"))
        // Offline: a failed end state.
        #expect(try Self.section("scenario-3", in: html).contains("fs-end-fail\" data-state=\"offline\""))
    }

    @Test func exchangesAreListedUnderTheirStateWithPrettyBodies() throws {
        let html = HTMLReport.render(try Self.record())
        let retry = try Self.section("scenario-1", in: html)
        #expect(Self.count("<details class=\"exchange ", in: retry) == 3)
        #expect(
            retry.contains(
                "<span class=\"method\">POST</span> <span class=\"url\">/api/auth/2fa/verify</span> <span class=\"status s4xx\">401</span>"
            ))
        #expect(retry.contains("<span class=\"time\">12 ms</span>"))
        #expect(retry.contains("<tr><th>Content-Type</th><td>application/json</td></tr>"))
        #expect(
            retry.contains(
                "<pre class=\"body json\">{\n  &quot;requiresTwoFactor&quot;: true,\n  &quot;userId&quot;: &quot;u-1&quot;\n}</pre>"
            ))
        // Each verify visit holds its own request: the 401 under step 3, the 200 under step 5.
        let step3 = try #require(
            retry.range(of: "<span class=\"step-no\">3</span> <code class=\"state\">verify</code>"))
        let step5 = try #require(
            retry.range(of: "<span class=\"step-no\">5</span> <code class=\"state\">verify</code>"))
        let first401 = try #require(retry.range(of: "status s4xx\">401"))
        let the200 = try #require(retry.range(of: "verify</span> <span class=\"status s2xx\">200"))
        #expect(
            step3.lowerBound < first401.lowerBound && first401.lowerBound < step5.lowerBound
                && step5.lowerBound < the200.lowerBound)
        // Passed scenarios keep exchanges closed; a failed one opens its last exchange.
        #expect(!retry.contains("<details class=\"exchange s2xx\" open>"))
        let unhandled = try Self.section("scenario-2", in: html)
        #expect(unhandled.contains("<details class=\"exchange s5xx\" open>"))
        #expect(unhandled.contains("&quot;&lt;h1&gt;boom&lt;/h1&gt;&quot;"))
        let infra = try Self.section("scenario-3", in: html)
        #expect(infra.contains("<span class=\"status no-response\">no response</span>"))
        #expect(infra.contains("<pre class=\"failure transport\">connection refused</pre>"))
    }

    @Test func namesAndBodiesAreEscaped() throws {
        let html = HTMLReport.render(try Self.record())
        #expect(!html.contains("<script>alert(1)</script>"))
        #expect(html.contains("<span class=\"name\">&lt;script&gt;alert(1)&lt;/script&gt; unhandled</span>"))
        #expect(!html.contains("<h1>boom"))
        #expect(Self.count("<script>", in: html) == 1)
    }

    @Test func subFlowRunsNestUnderTheirCaller() throws {
        let specs = try TestSpecs.load([
            "flows/login.yaml": Self.flowYAML,
            "flows/other.yaml": "flow: t.other\nstart: a\nstates:\n  a: { end: ok, success: true }\n",
        ])
        let login = specs.compiled["t.login"]!
        let report = ScenarioReport(
            name: "refreshes", file: "s.yaml", tags: [], status: .passed, failures: [], paths: [], lastExchange: nil,
            durationSeconds: 0.01, infrastructureFailure: false, skipReason: nil,
            runs: [
                FlowRunTrace.named(
                    id: 0, login, parent: nil, [.init(state: "login", edge: 1), .init(state: "rejected")],
                    outcome: "rejected", success: false),
                FlowRunTrace.named(
                    id: 1, login, parent: 0, [.init(state: "login", edge: 0), .init(state: "ask")],
                    outcome: nil, success: false),
                FlowRunTrace.named(
                    id: 2, specs.compiled["t.other"]!, parent: nil, [.init(state: "a")], outcome: "ok", success: true),
            ])
        let html = HTMLReport.render(
            RunRecord(
                reports: [report], specs: specs, startedAt: Date(timeIntervalSince1970: 0),
                durationSeconds: 0.01, toolVersion: "0.1.0"))
        let top = try #require(html.range(of: "<section class=\"run fail\">\n<h3>Run 1: <code>t.login</code>"))
        let nested = try #require(html.range(of: "<details class=\"run sub running\" open>\n<summary>Started by run 1"))
        let third = try #require(html.range(of: "<h3>Run 3: <code>t.other</code>"))
        #expect(top.lowerBound < nested.lowerBound && nested.lowerBound < third.lowerBound)
        // Every run refers to its compiled flow, so every run has its diagram.
        #expect(Self.count("<div class=\"diagram\">", in: html) == 3)
        #expect(html.contains("did not finish"))
    }

    @Test func emptyRunStillRenders() throws {
        let html = HTMLReport.render(
            RunRecord(
                reports: [], specs: try TestSpecs.load([:]), startedAt: Date(timeIntervalSince1970: 0),
                durationSeconds: 0, toolVersion: "0.1.0"))
        #expect(
            html.contains("0 passed, 0 failed</span></p>")
                || html.contains("<span class=\"count failed\">0 failed</span></p>"))
        #expect(html.contains("No scenarios ran."))
    }

    @Test func jsonBodiesArePrettyPrintedInSentOrder() {
        #expect(
            HTML.prettyJSON("{\"b\":1,\"a\":[1,{}],\"c\":\"x,{y}\"}")
                == "{\n  \"b\": 1,\n  \"a\": [\n    1,\n    {}\n  ],\n  \"c\": \"x,{y}\"\n}")
        #expect(HTML.prettyJSON("{\"cut\":") == nil)
        #expect(HTML.prettyJSON("email=a%40b&password=•••") == nil)
    }

    // MARK: Helpers

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// One scenario's `<details>` element.
    static func section(_ anchor: String, in html: String) throws -> String {
        let start = try #require(html.range(of: "id=\"\(anchor)\""))
        let end =
            html.range(of: "<details class=\"scenario ", range: start.upperBound..<html.endIndex)?.lowerBound
            ?? html.range(of: "</main>")!.lowerBound
        return String(html[start.lowerBound..<end])
    }
}
