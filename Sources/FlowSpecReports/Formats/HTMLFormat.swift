import FlowSpecProbe

/// `--report html=FILE`: one self-contained page, with each run drawn on its flow's diagram.
package struct HTMLFormat: ReportFormat {
    package init() {}
    package var name: String { "html" }
    package var requiresFile: String? { "report.html" }
    package var needs: ReportNeeds { [.exchanges, .traces] }
    package func render(_ run: RunRecord) -> String { HTMLReport.render(run) }
    package func render(probe verdicts: [ProbeVerdict]) -> String? { ProbeHTMLReport.render(verdicts) }
}
