import FlowSpecLanguage
import FlowSpecRuntime

/// How `flowspec exec` tells the end of its one flow run: a line (and one per output) for people, or one JSON
/// object for scripts. Everything is masked and its control characters escaped: the reason and the outputs often
/// hold what the backend said.
package enum ExecOutcome {
    /// `{flow, outcome, success, skipped, path, outputs}` on one line.
    package static func json(_ result: FlowResult, redactor: Redactor) -> String {
        let object: JSONValue = .object([
            "flow": .string(result.flow),
            "outcome": .string(result.outcome),
            "success": .bool(result.success),
            "skipped": .bool(result.skipReason != nil),
            "path": .array(result.path.map { .string($0) }),
            "outputs": redactor.maskedJSON(result.outputs.isEmpty ? .object([:]) : .object(result.outputs)),
        ])
        // A backend's control characters escaped as JSON does (DEL and C1 are not escaped by JSON itself).
        return TerminalText.escaped(redactor.redact(object.compactJSON), style: .json)
    }

    /// `outcome (success|failure|skipped): reason`, then `  name: value` per output, sorted by name.
    package static func lines(_ result: FlowResult, redactor: Redactor) -> [String] {
        let verdict = result.skipReason != nil ? "skipped" : result.success ? "success" : "failure"
        var line = "\(result.outcome) (\(verdict))"
        if !result.reason.isEmpty { line += ": " + TerminalText.escaped(redactor.redact(result.reason)) }
        return [line]
            + result.outputs.sorted(by: { $0.key < $1.key }).map { name, value in
                "  \(name): \(TerminalText.escaped(redactor.redact(redactor.maskedJSON(value).interpolated)))"
            }
    }

    /// The reason a failed run is printed beside its JSON object (on standard error).
    package static func failureReason(_ result: FlowResult, redactor: Redactor) -> String? {
        result.success ? nil : TerminalText.escaped(redactor.redact(result.reason))
    }
}
