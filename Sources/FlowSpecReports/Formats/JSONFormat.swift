import FlowSpecProbe

/// `--report json[=FILE]`: every scenario with its exchanges and traces (schema `flowspec-report`), or every probe
/// verdict with its evidence (schema `flowspec-probe`). `flowspec graph --trace` reads it back; shards' files merge.
package struct JSONFormat: ReportFormat {
    package init() {}
    package var name: String { "json" }
    package var requiresFile: String? { nil }
    package var needs: ReportNeeds { [.exchanges, .traces] }
    package func render(_ run: RunRecord) -> String { JSONReport.render(run) }
    package func render(probe verdicts: [ProbeVerdict]) -> String? { ProbeJSONReport.render(verdicts) }
    package var merging: ReportMerging? {
        ReportMerging(
            document: .json(schema: JSONReport.schema), singular: "JSON report (\(JSONReport.schema))",
            plural: "JSON reports")
    }
    package func merge(_ inputs: [ReportMerge.Input]) throws(ReportMergeError) -> String {
        try JSONReportMerge.merge(inputs)
    }
}
