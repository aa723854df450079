import FlowSpecLanguage
import Foundation

/// Merges JSON reports (schema `flowspec-report`, version 1): scenarios concatenated in input order, the
/// summary recomputed from them, `startedAt` the earliest start, `durationSeconds` the wall time from the
/// earliest start to the latest end. `tool` and any field this version does not know come from the first file.
enum JSONReportMerge {
    static func merge(_ inputs: [ReportMerge.Input]) throws(ReportMergeError) -> String {
        var documents: [[String: JSONValue]] = []
        var scenarios: [JSONValue] = []
        var runs: [(start: Date?, time: Double)] = []
        for input in inputs {
            let (document, start) = try validated(input)
            documents.append(document)
            scenarios += document["scenarios"]?.arrayValue ?? []
            runs.append((start, document["durationSeconds"]?.numberValue ?? 0))
        }
        var merged = documents[0]
        merged["scenarios"] = .array(scenarios)
        merged["summary"] = JSONReport.summary(scenarios.map { $0["status"].stringValue ?? "" })
        let earliest = runs.compactMap(\.start).min()!
        merged["startedAt"] = .string(JSONReport.timestamp(earliest))
        merged["durationSeconds"] = JSONReport.seconds(JUnitMerge.wallTime(runs))
        return JSONReport.pretty(.object(merged))
    }

    /// The document and its start, or what is wrong with it.
    private static func validated(_ input: ReportMerge.Input) throws(ReportMergeError) -> ([String: JSONValue], Date) {
        func fail(_ text: String) -> ReportMergeError { ReportMergeError(text).in(input.name) }
        guard let document = JSONValue.parse(input.text)?.objectValue else { throw fail("not a JSON object") }
        guard let version = document["version"]?.numberValue else { throw fail("no \"version\" number") }
        guard version == Double(JSONReport.version) else {
            throw fail(
                "JSON report version \(JSONValue.format(version)); this flowspec reads version \(JSONReport.version)"
                    + (version > Double(JSONReport.version) ? " (the file was written by a newer flowspec)" : ""))
        }
        guard let list = document["scenarios"]?.arrayValue else { throw fail("no \"scenarios\" list") }
        for (index, scenario) in list.enumerated() {
            guard scenario.objectValue != nil, let status = scenario["status"].stringValue,
                ["passed", "failed", "skipped"].contains(status)
            else {
                throw fail("scenarios[\(index)] has no \"status\" of passed, failed or skipped")
            }
        }
        guard let text = document["startedAt"]?.stringValue, let start = JSONReport.parseTimestamp(text) else {
            throw fail("\"startedAt\" is missing or not an ISO 8601 time such as 2026-11-21T10:00:00Z")
        }
        return (document, start)
    }
}
