import FlowSpecRuntime
import Foundation

/// Plain, readable console output: a line per scenario, details for failures, and the summary line
/// `N passed, N failed[, N skipped]` that CI systems read. What a backend sent is shown with its control
/// characters escaped (`TerminalText`): a line break in it is indented under the line it belongs to, or escaped.
package struct ConsoleReporter: Sendable {
    package var color: Bool
    package var verbose: Bool
    /// With `--repeat N`: N, so a run is labelled `(run 2 of 3)` as in every report.
    package var repetitions: Int?

    package init(color: Bool, verbose: Bool = false) {
        self.color = color
        self.verbose = verbose
    }

    func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    package func line(for report: ScenarioReport) -> String {
        let time = String(format: "%.0f ms", report.durationSeconds * 1000)
        let name =
            report.repetition.map { "\(report.name) (run \($0)\(repetitions.map { " of \($0)" } ?? ""))" }
            ?? report.name
        switch report.status {
        case .passed:
            return "\(paint("PASS", "32"))  \(name)  \(paint("(\(report.file), \(time))", "2"))" + exchanges(report)
        case .skipped:
            return
                "\(paint("SKIP", "33"))  \(name)  \(paint("(\(report.file))", "2"))\n      \(TerminalText.indented(report.skipReason ?? "", by: "      "))"
        case .failed:
            var text = "\(paint("FAIL", "31"))  \(name)  \(paint("(\(report.file), \(time))", "2"))"
            for failure in report.failures {
                text += "\n    - " + TerminalText.indented(failure, by: "      ")
            }
            for (flow, path) in report.paths where !path.isEmpty {
                text += "\n    path (\(flow)): " + path.joined(separator: " → ")
            }
            if verbose { return text + exchanges(report) }
            if let last = report.lastExchange {
                text += "\n    last exchange: " + TerminalText.escaped(last, keepingLineBreaks: true)
            }
            return text
        }
    }

    /// With `--verbose`: every request and response, masked, indented under the scenario.
    func exchanges(_ report: ScenarioReport) -> String {
        guard verbose else { return "" }
        return exchanges(report.exchanges)
    }

    /// Requests and their responses as `--verbose` shows them, each line starting on a new line: `run` under each
    /// scenario, `exec` as the flow goes. The one place this format is written; the records come masked.
    package func exchanges(_ records: [ExchangeRecord]) -> String {
        var text = ""
        for e in records {
            text +=
                "\n    " + paint("\(e.method) \(TerminalText.escaped(e.url))", "1")
                + paint("  (\(e.flow) · \(e.state))", "2")
            for h in e.requestHeaders {
                text += "\n      \(TerminalText.escaped(h.name)): \(TerminalText.escaped(h.value))"
            }
            if let body = e.requestBody { text += "\n      " + TerminalText.escaped(body) }
            if let status = e.status {
                text +=
                    "\n    ← " + paint("\(status)", status < 400 ? "32" : "31")
                    + String(format: "  (%.0f ms)", e.durationSeconds * 1000)
                for h in e.responseHeaders {
                    text += "\n      \(TerminalText.escaped(h.name)): \(TerminalText.escaped(h.value))"
                }
                if let body = e.responseBody { text += "\n      " + TerminalText.escaped(body) }
            } else if let failure = e.failure {
                text += "\n    ← " + paint("no response: \(TerminalText.escaped(failure))", "31")
            }
        }
        return text
    }

    package static func summary(_ reports: [ScenarioReport]) -> String {
        let passed = reports.filter { $0.status == .passed }.count
        let failed = reports.filter { $0.status == .failed }.count
        let skipped = reports.filter { $0.status == .skipped }.count
        return "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
