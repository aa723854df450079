import FlowSpecProbe

/// `--report coverage[=FILE]`: the states, transitions and guard outcomes the run exercised (schema
/// `flowspec-coverage`); shards' files merge by adding their counts. A probe run has no coverage form.
package struct CoverageFormat: ReportFormat {
    package init() {}
    package var name: String { "coverage" }
    package var requiresFile: String? { nil }
    package var needs: ReportNeeds { [.traces, .coverage] }
    package func render(_ run: RunRecord) -> String { run.coverage.map(CoverageJSON.render) ?? "" }
    package func render(probe verdicts: [ProbeVerdict]) -> String? { nil }
    package var merging: ReportMerging? {
        ReportMerging(
            document: .json(schema: FlowCoverage.schemaName), singular: "coverage file (\(FlowCoverage.schemaName))",
            plural: "coverage files")
    }
    package func merge(_ inputs: [ReportMerge.Input]) throws(ReportMergeError) -> String {
        do {
            return try CoverageJSON.merge(inputs.map(\.text), names: inputs.map(\.name))
        } catch {
            throw ReportMergeError(error.description)
        }
    }
}
