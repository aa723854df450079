import FlowSpecLanguage
import FlowSpecRuntime

/// The inputs `flowspec exec` is given on its command line (`--input name=value`, `--input-command name=cmd`):
/// checked against the inputs the flow can ask for, and rendered as scenario inputs are.
package enum ExecInputs {
    /// The first name the flow (with the flows it calls and refreshes through) never asks for, with a suggestion.
    package static func unknownName(_ names: some Sequence<String>, flow: Flow, specs: SpecSet) -> String? {
        let known = ScenarioDecoder.reachableInputs(flow, specs: specs)
        for name in Set(names).sorted() where !known.contains(name) {
            return "flow `\(flow.name)` reads no input named `\(name)`; "
                + Suggestion.amongNames(name, in: known.sorted(), listing: "inputs")
        }
        return nil
    }

    /// `--input` values read as scenario inputs are (`InputTemplate`): `${…}` evaluated now over the run variables
    /// and the clock, `$${` a literal `${`. The error is located in the value (`--input code:1:3`), masked.
    package static func rendered(
        _ assignments: [(String, String)], vars: [String: JSONValue], now: Double,
        redactor: Redactor
    ) throws(ExecInputError) -> [String: [String]] {
        var templates: [String: [Template]] = [:]
        var diagnostics = Diagnostics()
        for (name, value) in assignments {
            // Located within the value: `--input code:1:3` is the third character after `code=`.
            let at = SourceLocation(file: "--input \(name)", line: 1, column: 1)
            if let template = InputTemplate.parse(value, at: at, name: name, &diagnostics) {
                templates[name, default: []].append(template)
            }
        }
        if diagnostics.hasErrors {
            throw ExecInputError(
                lines: diagnostics.errors.map { TerminalText.escaped(redactor.redact($0.description)) })
        }
        do {
            return try ScenarioInputs(values: templates).resolved(vars, now: now, redactor, origin: .shell).values
        } catch {
            throw ExecInputError(lines: ["error: " + TerminalText.escaped(redactor.redact(error.message))])
        }
    }
}

/// Why `--input` values could not be used: one or more lines, already masked and escaped for a terminal.
package struct ExecInputError: Error, Sendable {
    package var lines: [String]
}
