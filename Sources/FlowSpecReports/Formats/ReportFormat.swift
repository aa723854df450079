import FlowSpecProbe

/// One report format: its name after `--report`, what it needs the run to record, how it renders a scenario run
/// and a probe run, and whether `flowspec merge` can join several of its files. Each format is one type conforming
/// to this protocol, listed once in `ReportFormats.all`; `run`, `probe` and `merge` all read that list.
package protocol ReportFormat: Sendable {
    /// What follows `--report`: `junit`, `json` …
    var name: String { get }
    /// An example file name, when the format cannot go to standard output (a binary-ish or multi-part document
    /// nobody pipes); nil when standard output is fine.
    var requiresFile: String? { get }
    /// What the run must record for this format (recording costs time: only what some format asks for).
    var needs: ReportNeeds { get }
    /// The report of a `flowspec run` (or `coverage`).
    func render(_ run: RunRecord) -> String
    /// The report of a `flowspec probe`; nil when the format has no probe form.
    func render(probe verdicts: [ProbeVerdict]) -> String?
    /// How `flowspec merge` recognises and names a file of this format; nil when it cannot be merged.
    var merging: ReportMerging? { get }
    /// One file from several shards' files of this format, in the given order. Called only when `merging` is set.
    func merge(_ inputs: [ReportMerge.Input]) throws(ReportMergeError) -> String
}

extension ReportFormat {
    package var merging: ReportMerging? { nil }
    package func merge(_ inputs: [ReportMerge.Input]) throws(ReportMergeError) -> String {
        throw ReportMergeError("\(name) reports cannot be merged")
    }
}

/// What a format needs the run to record beyond each scenario's verdict.
package struct ReportNeeds: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// Passed scenarios' requests and responses (failed ones always keep theirs).
    package static let exchanges = ReportNeeds(rawValue: 1)
    /// The states, edges and false guards of every run.
    package static let traces = ReportNeeds(rawValue: 2)
    /// Flow coverage, computed from the traces over the run's coverage scope.
    package static let coverage = ReportNeeds(rawValue: 4)
}

/// How `flowspec merge` tells a file of a format from its content (never its name), and names it in messages.
package struct ReportMerging: Sendable {
    package enum Document: Sendable, Equatable {
        /// An XML document (it starts with `<`).
        case xml
        /// A JSON object whose `"schema"` field is this.
        case json(schema: String)
    }

    package var document: Document
    /// "JUnit XML report": for "a.xml is a JUnit XML report but b.json is …".
    package var singular: String
    /// "JUnit XML reports": for "merged 3 JUnit XML reports into …".
    package var plural: String
}
