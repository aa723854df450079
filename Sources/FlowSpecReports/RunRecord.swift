import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

/// Everything a report of one `flowspec run` needs: the scenario reports (already masked), the flows they
/// ran (for diagrams and coverage), and when and how long.
package struct RunRecord: Sendable {
    package var reports: [ScenarioReport]
    package var specs: SpecSet
    package var startedAt: Date
    package var durationSeconds: Double
    package var toolVersion: String
    /// Flow coverage over the run's scope, when a format or the console asked for it (`ReportNeeds.coverage`).
    package var coverage: FlowCoverage?

    package init(
        reports: [ScenarioReport], specs: SpecSet, startedAt: Date, durationSeconds: Double, toolVersion: String
    ) {
        self.reports = reports
        self.specs = specs
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.toolVersion = toolVersion
    }

    package var passed: Int { reports.filter { $0.status == .passed }.count }
    package var failed: Int { reports.filter { $0.status == .failed }.count }
    package var skipped: Int { reports.filter { $0.status == .skipped }.count }

    /// The name a report shows for a scenario: with `(run 2 of 3)` when `--repeat` ran it several times,
    /// so JUnit test cases stay unique.
    package func displayName(_ report: ScenarioReport) -> String {
        guard let repetition = report.repetition else { return report.name }
        let total = reports.filter { $0.name == report.name && $0.file == report.file }.count
        return "\(report.name) (run \(repetition) of \(total))"
    }
}
