import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

/// TAP version 13 (testanything.org): one `ok`/`not ok` line per scenario, a YAML diagnostic block under each
/// failure, `# SKIP reason` for skipped scenarios.
package enum TAPReport {
    package static func render(_ run: RunRecord) -> String {
        var lines = ["TAP version 13", "1..\(run.reports.count)"]
        for (index, report) in run.reports.enumerated() {
            let number = index + 1
            let name = description(run.displayName(report))
            switch report.status {
            case .passed:
                lines.append("ok \(number) - \(name)")
            case .skipped:
                lines.append("ok \(number) - \(name) # SKIP \(directiveText(report.skipReason ?? "skipped"))")
            case .failed:
                lines.append("not ok \(number) - \(name)")
                lines += diagnostics(report).map { "  " + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The YAML block under a `not ok` line: `---` … `...`, indented by the caller.
    static func diagnostics(_ report: ScenarioReport) -> [String] {
        var lines = ["---"]
        let message =
            report.failures.first.map(JUnitReport.firstLine)
            ?? (report.infrastructureFailure ? "the backend did not answer" : "failed")
        lines.append("message: " + YAMLWriter.quoted(message))
        lines.append("severity: " + (report.infrastructureFailure ? "error" : "fail"))
        lines.append("file: " + YAMLWriter.quoted(report.file))
        lines.append("duration_ms: " + String(format: "%.3f", max(0, report.durationSeconds) * 1000))
        if !report.failures.isEmpty {
            lines.append("failures:")
            lines += report.failures.flatMap { yamlItem($0) }
        }
        let paths = report.paths.filter { !$0.path.isEmpty }
        if !paths.isEmpty {
            lines.append("paths:")
            lines += paths.map { "  - " + YAMLWriter.quoted("\($0.flow): " + $0.path.joined(separator: " → ")) }
        }
        if let last = report.lastExchange { lines.append("last_exchange: " + YAMLWriter.quoted(last)) }
        lines.append("...")
        return lines
    }

    /// A test description: `#` starts a directive and `\` escapes, so both are escaped; a line break would end
    /// the test line, so it becomes a space.
    static func description(_ name: String) -> String {
        oneLine(name).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#")
    }

    /// The text after `# SKIP`, which runs to the end of the line.
    static func directiveText(_ text: String) -> String { oneLine(text) }

    /// Other control characters are escaped as the console shows them: TAP is read on terminals too.
    private static func oneLine(_ text: String) -> String {
        TerminalText.escaped(
            text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "\r", with: " "))
    }

    /// A list item: a literal block (`|-`) for multi-line text people read in CI logs, else a quoted string.
    static func yamlItem(_ text: String) -> [String] {
        guard text.contains("\n"), blockSafe(text) else { return ["  - " + YAMLWriter.quoted(text)] }
        return ["  - |-"]
            + text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }
    }

    /// Literal blocks cannot start with a space (the indentation would be misread) or hold control characters.
    private static func blockSafe(_ text: String) -> Bool {
        !text.hasPrefix(" ") && !text.hasSuffix("\n")
            && text.unicodeScalars.allSatisfy { $0 == "\n" || YAMLWriter.isPrintable($0) }
    }

}
