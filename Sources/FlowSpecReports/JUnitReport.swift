import FlowSpecScenarios
import Foundation

/// JUnit XML, the format every CI system reads (Jenkins `junit`, GitLab `artifacts:reports:junit`, GitHub
/// test-reporter actions). Layout, as documented in docs/reports.md:
/// - one `<testsuite>` per scenario folder (`scenarios/repairminder`), in run order;
/// - one `<testcase>` per scenario run: `name` is the scenario (with `(run 2 of 3)` under `--repeat`),
///   `classname` the file as a dotted path (Jenkins shows folder as package, file as class), `file` the path;
/// - a broken expectation is a `<failure type="expectation">`; a backend that did not answer is an
///   `<error type="infrastructure">`, so "backend down" does not read as "regression";
/// - a failed scenario's masked exchanges go in its `<system-out>`.
package enum JUnitReport {
    package static func render(_ run: RunRecord, hostname: String = ProcessInfo.processInfo.hostName) -> String {
        tree(run, hostname: hostname).document
    }

    static func tree(_ run: RunRecord, hostname: String) -> XMLTree {
        let timestamp = JUnitReport.timestamp(run.startedAt)
        var order: [String] = []
        var grouped: [String: [ScenarioReport]] = [:]
        for report in run.reports {
            let suite = suiteName(report.file)
            if grouped[suite] == nil { order.append(suite) }
            grouped[suite, default: []].append(report)
        }
        let suites = order.map { name in
            suite(name, grouped[name]!.map { testcase($0, run: run) }, timestamp: timestamp, hostname: hostname)
        }
        var root = XMLTree("testsuites", [("name", "flowspec")], children: suites)
        totals(of: suites).forEach { root[attribute: $0.0] = $0.1 }
        root[attribute: "time"] = seconds(run.durationSeconds)
        return root
    }

    /// A `<testsuite>` with its counts computed from its test cases: the one rule for both `run` and `merge`.
    static func suite(
        _ name: String, _ cases: [XMLTree], timestamp: String?, hostname: String?,
        time: Double? = nil
    ) -> XMLTree {
        var suite = XMLTree("testsuite", [("name", name)], children: cases)
        for (key, value) in counts(of: cases) { suite[attribute: key] = value }
        let total = time ?? cases.compactMap { Double($0[attribute: "time"] ?? "") }.reduce(0, +)
        suite[attribute: "time"] = seconds(total)
        if let timestamp { suite[attribute: "timestamp"] = timestamp }
        if let hostname { suite[attribute: "hostname"] = hostname }
        return suite
    }

    /// `tests`, `failures`, `errors`, `skipped` of a list of `<testcase>`s, in that attribute order.
    static func counts(of cases: [XMLTree]) -> [(String, String)] {
        func count(_ child: String) -> Int { cases.filter { !$0.children(named: child).isEmpty }.count }
        return [
            ("tests", "\(cases.count)"), ("failures", "\(count("failure"))"), ("errors", "\(count("error"))"),
            ("skipped", "\(count("skipped"))"),
        ]
    }

    /// The same counts summed over suites, for `<testsuites>`.
    static func totals(of suites: [XMLTree]) -> [(String, String)] {
        counts(of: suites.flatMap { $0.children(named: "testcase") })
    }

    static func testcase(_ report: ScenarioReport, run: RunRecord) -> XMLTree {
        var testcase = XMLTree(
            "testcase",
            [
                ("name", run.displayName(report)),
                ("classname", className(report.file)),
                ("file", report.file),
                ("time", seconds(report.durationSeconds)),
            ])
        switch report.status {
        case .passed:
            break
        case .skipped:
            testcase.children.append(XMLTree("skipped", [("message", firstLine(report.skipReason ?? "skipped"))]))
        case .failed:
            let kind = report.infrastructureFailure ? ("error", "infrastructure") : ("failure", "expectation")
            let message =
                report.failures.first.map(firstLine)
                ?? (report.infrastructureFailure ? "the backend did not answer" : "failed")
            testcase.children.append(
                XMLTree(kind.0, [("message", message), ("type", kind.1)], text: explanation(report)))
            if !report.exchanges.isEmpty {
                testcase.children.append(XMLTree("system-out", text: ExchangeTranscript.text(report.exchanges)))
            }
        }
        return testcase
    }

    /// Every failure sentence, the path of each step and the last exchange: what the console prints for a
    /// failed scenario, already masked by the runner.
    static func explanation(_ report: ScenarioReport) -> String {
        var lines = report.failures.map { "- " + $0.replacingOccurrences(of: "\n", with: "\n  ") }
        for (flow, path) in report.paths where !path.isEmpty {
            lines.append("path (\(flow)): " + path.joined(separator: " → "))
        }
        if let last = report.lastExchange { lines.append("last exchange: " + last) }
        lines.append("file: " + report.file)
        return lines.joined(separator: "\n")
    }

    /// `scenarios/repairminder/login.yaml` → `scenarios/repairminder`; a file in the current folder → `.`.
    static func suiteName(_ file: String) -> String {
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// `scenarios/repairminder/login.yaml` → `scenarios.repairminder.login`.
    static func className(_ file: String) -> String {
        var path = (file as NSString).deletingPathExtension
        while path.hasPrefix("./") { path.removeFirst(2) }
        while path.hasPrefix("/") { path.removeFirst() }
        return path.replacingOccurrences(of: "/", with: ".")
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first ?? "")
    }

    /// Seconds with three decimals, the unit every JUnit reader expects.
    static func seconds(_ value: Double) -> String { String(format: "%.3f", value.isFinite ? max(0, value) : 0) }

    /// UTC, without a zone designator: the Ant JUnit schema's `ISO8601_DATETIME_PATTERN`, which strict readers
    /// validate against.
    static func timestamp(_ date: Date) -> String { String(JSONReport.timestamp(date).dropLast()) }
}

/// The masked requests and responses of a scenario as plain text, the way `--verbose` prints them.
enum ExchangeTranscript {
    static func text(_ exchanges: [ExchangeRecord]) -> String {
        var lines: [String] = []
        for e in exchanges {
            lines.append("\(e.method) \(e.url)  (\(e.flow) · \(e.state))")
            for h in e.requestHeaders { lines.append("  \(h.name): \(h.value)") }
            if let body = e.requestBody { lines.append("  " + body) }
            if let status = e.status {
                lines.append("← \(status)  (\(String(format: "%.0f", e.durationSeconds * 1000)) ms)")
                for h in e.responseHeaders { lines.append("  \(h.name): \(h.value)") }
                if let body = e.responseBody { lines.append("  " + body) }
            } else {
                lines.append("← no response: \(e.failure ?? "unknown")")
            }
        }
        return lines.joined(separator: "\n")
    }
}
