import FlowSpecProbe

/// `--report junit=FILE`: JUnit XML for CI test tabs; shards' files merge into one.
package struct JUnitFormat: ReportFormat {
    package init() {}
    package var name: String { "junit" }
    package var requiresFile: String? { "junit.xml" }
    package var needs: ReportNeeds { [] }
    package func render(_ run: RunRecord) -> String { JUnitReport.render(run) }
    package func render(probe verdicts: [ProbeVerdict]) -> String? { ProbeJUnitReport.render(verdicts) }
    package var merging: ReportMerging? {
        ReportMerging(document: .xml, singular: "JUnit XML report", plural: "JUnit XML reports")
    }
    package func merge(_ inputs: [ReportMerge.Input]) throws(ReportMergeError) -> String {
        try JUnitMerge.merge(inputs)
    }
}
