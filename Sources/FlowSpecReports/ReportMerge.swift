import FlowSpecLanguage
import Foundation

/// `flowspec merge`: one report from the reports of several shards (`--shard K/N` on N machines). The format
/// of each input is read from its content, never its file name, and all inputs must be of one format. Which
/// formats merge, and how, is theirs to say (`ReportFormat.merging`).
package enum ReportMerge {
    package struct Input: Sendable {
        /// The file name, for messages.
        package var name: String
        package var text: String
        package init(name: String, text: String) {
            self.name = name
            self.text = text
        }
    }

    /// Tells which format a text is, or why it is none of them.
    package static func format(of text: String, among formats: [any ReportFormat] = ReportFormats.all) -> Result<
        any ReportFormat, ReportMergeError
    > {
        let mergeable = formats.filter { $0.merging != nil }
        func format(_ document: ReportMerging.Document) -> (any ReportFormat)? {
            mergeable.first { $0.merging?.document == document }
        }
        let schemas = mergeable.compactMap { format -> String? in
            if case .json(let schema)? = format.merging?.document { return "\"\(schema)\"" }
            return nil
        }
        let start = text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }
        switch start {
        case "<":
            guard let xml = format(.xml) else { break }
            return .success(xml)
        case "{":
            guard let value = JSONValue.parse(text) else {
                return .failure(.init("not valid JSON (it starts with `{` but does not parse)"))
            }
            switch value["schema"].stringValue {
            case let schema?:
                if let json = format(.json(schema: schema)) { return .success(json) }
                return .failure(
                    .init("a JSON file with \"schema\": \"\(schema)\"; expected \(schemas.joined(separator: " or "))"))
            case nil:
                let options = mergeable.filter { if case .json? = $0.merging?.document { true } else { false } }
                    .map { "--report \($0.name)=FILE" }.joined(separator: " or ")
                return .failure(.init("a JSON file without a \"schema\" field; expected a report from \(options)"))
            }
        case nil:
            return .failure(.init("empty; expected a report written by flowspec run --report"))
        default:
            break
        }
        return .failure(
            .init(
                "neither JUnit XML nor a flowspec JSON report (it starts with `\(String(text.prefix(20)).split(separator: "\n").first ?? "")`)"
            ))
    }

    /// Merges the inputs (in the given order) into one document of their format.
    package static func merge(_ inputs: [Input], among formats: [any ReportFormat] = ReportFormats.all)
        throws(ReportMergeError)
        -> (format: any ReportFormat, text: String)
    {
        guard let first = inputs.first else {
            throw ReportMergeError("nothing to merge: give at least one report file")
        }
        let found = try inputs.map { input throws(ReportMergeError) in
            switch format(of: input.text, among: formats) {
            case .success(let format): return format
            case .failure(let error): throw error.in(input.name)
            }
        }
        if let odd = found.firstIndex(where: { $0.name != found[0].name }) {
            throw ReportMergeError(
                "\(inputs[odd].name) is a \(found[odd].merging?.singular ?? found[odd].name) but \(first.name) is a "
                    + "\(found[0].merging?.singular ?? found[0].name); merge files of one kind at a time")
        }
        return (found[0], try found[0].merge(inputs))
    }
}

package struct ReportMergeError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }

    /// The same problem, prefixed with the file it is in.
    func `in`(_ file: String) -> ReportMergeError { ReportMergeError("\(file): \(description)") }
}
