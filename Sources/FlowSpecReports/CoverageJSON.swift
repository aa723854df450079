import Foundation

/// The coverage file: `--report coverage=FILE`, `flowspec coverage --format json`; merged with `flowspec merge`.
package enum CoverageJSON {
    package static func render(_ coverage: FlowCoverage) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain structs of strings and numbers cannot fail.
        let data = (try? encoder.encode(coverage)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a coverage file's text; `name` is used in errors.
    package static func parse(_ text: String, name: String) throws(CoverageFileError) -> FlowCoverage {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw CoverageFileError("\(name): not a JSON object; expected a coverage file from --report coverage=FILE")
        }
        guard object["schema"] as? String == FlowCoverage.schemaName else {
            throw CoverageFileError(
                "\(name): not a FlowSpec coverage file (its \"schema\" is not \"\(FlowCoverage.schemaName)\")")
        }
        guard let version = object["version"] as? Int, version == FlowCoverage.schemaVersion else {
            throw CoverageFileError(
                "\(name): coverage file version \(object["version"] ?? "none") is not supported; this flowspec reads version \(FlowCoverage.schemaVersion)"
            )
        }
        do {
            return try JSONDecoder().decode(FlowCoverage.self, from: Data(text.utf8))
        } catch {
            throw CoverageFileError("\(name): malformed coverage file: \(error)")
        }
    }

    /// Merges coverage files' texts (shards) into one coverage file's text. `names` label errors.
    package static func merge(_ documents: [String], names: [String]? = nil) throws(CoverageFileError) -> String {
        var parts: [FlowCoverage] = []
        for (i, text) in documents.enumerated() { parts.append(try parse(text, name: names?[i] ?? "input \(i + 1)")) }
        return render(FlowCoverage.merge(parts))
    }
}

package struct CoverageFileError: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

/// The coverage table and the list of what was never exercised, by file:line:column.
package enum CoverageText {
    package static func render(_ coverage: FlowCoverage, showGuards: Bool = true) -> String {
        var lines = [
            "Flow coverage: transitions \(coverage.transitionRatio.percentText) (\(coverage.transitionRatio.text))"
                + " · states \(coverage.stateRatio.percentText) (\(coverage.stateRatio.text))"
                + " · guard outcomes \(coverage.guardRatio.percentText) (\(coverage.guardRatio.text))"
                + " · end states \(coverage.endRatio.percentText) (\(coverage.endRatio.text))"
        ]
        let width = coverage.flows.map(\.flow.count).max() ?? 0
        for flow in coverage.flows {
            let name = flow.flow.padding(toLength: max(width, flow.flow.count), withPad: " ", startingAt: 0)
            lines.append(
                "  \(name)  transitions \(column(flow.transitionRatio))  states \(column(flow.stateRatio))"
                    + "  guards \(column(flow.guardRatio))  ends \(flow.endRatio.percentText) \(flow.endRatio.text)")
        }
        var uncovered: [String] = []
        for flow in coverage.flows {
            for state in flow.states where state.hits == 0 {
                uncovered.append(
                    "\(flow.file):\(state.line):\(state.column): \(flow.flow): state `\(state.name)` never reached")
            }
            for t in flow.transitions where t.hits == 0 {
                uncovered.append(
                    "\(flow.file):\(t.line):\(t.column): \(flow.flow): transition \(describe(t)) never taken")
            }
            if showGuards {
                for t in flow.transitions where t.guardFalse == 0 && t.hits > 0 {
                    uncovered.append(
                        "\(flow.file):\(t.line):\(t.column): \(flow.flow): guard `\(t.label)` in `\(t.state)` never false"
                    )
                }
            }
        }
        if !uncovered.isEmpty {
            lines.append("Not exercised (\(uncovered.count)):")
            lines += uncovered.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// `login → ask_code (when status == 200)`.
    static func describe(_ t: FlowCoverage.TransitionEntry) -> String {
        let why: String
        switch t.kind {
        case "guarded": why = " (when \(t.label))"
        case "otherwise": why = " (else)"
        case "unreachable": why = " (unreachable: no response)"
        case "invalidInput": why = " (invalid input)"
        default: why = ""
        }
        return "`\(t.state)` → `\(t.target)`\(why)"
    }

    static func column(_ ratio: CoverageRatio) -> String {
        "\(ratio.percentText.padding(toLength: 5, withPad: " ", startingAt: 0)) \(ratio.text)".padding(
            toLength: 14, withPad: " ", startingAt: 0)
    }
}
