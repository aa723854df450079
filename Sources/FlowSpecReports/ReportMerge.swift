import Foundation
import FlowSpecLanguage

/// `flowspec merge`: one report from the reports of several shards (`--shard K/N` on N machines). The kind
/// of each input is read from its content, never its file name, and all inputs must be of one kind.
public enum ReportMerge {
    public enum Kind: String, Sendable, Equatable {
        case junit = "JUnit XML report"
        case json = "JSON report (flowspec-report)"
        case coverage = "coverage file (flowspec-coverage)"

        /// For "merged 3 JSON reports into …".
        public var plural: String {
            switch self {
            case .junit: "JUnit XML reports"
            case .json: "JSON reports"
            case .coverage: "coverage files"
            }
        }
    }

    public struct Input: Sendable {
        /// The file name, for messages.
        public var name: String
        public var text: String
        public init(name: String, text: String) {
            self.name = name
            self.text = text
        }
    }

    /// Tells which report a text is, or why it is none of them.
    public static func kind(of text: String) -> Result<Kind, ReportMergeError> {
        let start = text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }
        switch start {
        case "<":
            return .success(.junit)
        case "{":
            guard let value = JSONValue.parse(text) else {
                return .failure(.init("not valid JSON (it starts with `{` but does not parse)"))
            }
            switch value["schema"].stringValue {
            case JSONReport.schema: return .success(.json)
            case FlowCoverage.schemaName: return .success(.coverage)
            case let other?: return .failure(.init("a JSON file with \"schema\": \"\(other)\"; expected \"\(JSONReport.schema)\" or \"\(FlowCoverage.schemaName)\""))
            case nil: return .failure(.init("a JSON file without a \"schema\" field; expected a report from --report json=FILE or --report coverage=FILE"))
            }
        case nil:
            return .failure(.init("empty; expected a report written by flowspec run --report"))
        default:
            return .failure(.init("neither JUnit XML nor a flowspec JSON report (it starts with `\(String(text.prefix(20)).split(separator: "\n").first ?? "")`)"))
        }
    }

    /// Merges the inputs (in the given order) into one document of their kind.
    public static func merge(_ inputs: [Input]) throws(ReportMergeError) -> (kind: Kind, text: String) {
        guard let first = inputs.first else { throw ReportMergeError("nothing to merge: give at least one report file") }
        let kinds = try inputs.map { input throws(ReportMergeError) in
            switch kind(of: input.text) {
            case .success(let kind): return kind
            case .failure(let error): throw error.in(input.name)
            }
        }
        if let odd = kinds.firstIndex(where: { $0 != kinds[0] }) {
            throw ReportMergeError("\(inputs[odd].name) is a \(kinds[odd].rawValue) but \(first.name) is a \(kinds[0].rawValue); "
                + "merge files of one kind at a time")
        }
        switch kinds[0] {
        case .junit: return (.junit, try JUnitMerge.merge(inputs))
        case .json: return (.json, try JSONReportMerge.merge(inputs))
        case .coverage:
            do {
                return (.coverage, try CoverageJSON.merge(inputs.map(\.text), names: inputs.map(\.name)))
            } catch {
                throw ReportMergeError(error.description)
            }
        }
    }
}

public struct ReportMergeError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }

    /// The same problem, prefixed with the file it is in.
    func `in`(_ file: String) -> ReportMergeError { ReportMergeError("\(file): \(description)") }
}
