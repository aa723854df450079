import FlowSpecProbe

/// `--report tap[=FILE]`: TAP version 13, one test point per scenario or probe verdict.
package struct TAPFormat: ReportFormat {
    package init() {}
    package var name: String { "tap" }
    package var requiresFile: String? { nil }
    package var needs: ReportNeeds { [] }
    package func render(_ run: RunRecord) -> String { TAPReport.render(run) }
    package func render(probe verdicts: [ProbeVerdict]) -> String? { ProbeTAPReport.render(verdicts) }
}
