import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation
import Testing

@testable import FlowSpecProbe
@testable import FlowSpecReports

/// The one exit-code policy every command uses (docs/cli.md).
@Suite(.timeLimit(.minutes(5))) struct ExitPolicyTests {
    func scenario(_ status: ScenarioReport.Status, infrastructure: Bool = false) -> ScenarioReport {
        ScenarioReport(
            name: "s", file: "s.yaml", tags: [], status: status, failures: status == .failed ? ["f"] : [], paths: [],
            lastExchange: nil, durationSeconds: 0, infrastructureFailure: infrastructure,
            skipReason: status == .skipped ? "r" : nil)
    }

    @Test func scenarioRuns() {
        #expect(ExitPolicy.status(of: [scenario(.passed), scenario(.skipped)]) == nil)
        #expect(ExitPolicy.status(of: [scenario(.passed), scenario(.failed)]) == .failed)
        #expect(ExitPolicy.status(of: [scenario(.passed), scenario(.failed, infrastructure: true)]) == .infrastructure)
        // A broken promise outranks a backend that did not answer.
        #expect(ExitPolicy.status(of: [scenario(.failed, infrastructure: true), scenario(.failed)]) == .failed)
        // Every scenario skipped: nothing was checked, so not green.
        #expect(ExitPolicy.status(of: [scenario(.skipped), scenario(.skipped)]) == .failed)
        #expect(ExitPolicy.nothingChecked([scenario(.skipped)]))
        #expect(!ExitPolicy.nothingChecked([scenario(.skipped), scenario(.failed)]))
        #expect(!ExitPolicy.nothingChecked([ScenarioReport]()))
    }

    func verdict(_ status: ProbeVerdict.Status, infrastructure: Bool = false) -> ProbeVerdict {
        var verdict = ProbeVerdict(
            session: "s", kind: ProbeKind.allCases[0], check: "", status: status, detail: "d", source: "")
        verdict.infrastructure = infrastructure
        return verdict
    }

    @Test func probeRuns() {
        #expect(ExitPolicy.status(of: [verdict(.held), verdict(.notApplicable), verdict(.skipped)]) == nil)
        #expect(ExitPolicy.status(of: [verdict(.held), verdict(.broken)]) == .failed)
        // An ERROR of the backend's or the flows' (a login that failed) is a failure; one of the machine's is not.
        #expect(ExitPolicy.status(of: [verdict(.held), verdict(.error)]) == .failed)
        #expect(ExitPolicy.status(of: [verdict(.held), verdict(.error, infrastructure: true)]) == .infrastructure)
        #expect(ExitPolicy.status(of: [verdict(.error, infrastructure: true), verdict(.broken)]) == .failed)
        #expect(ExitPolicy.status(of: [verdict(.notApplicable), verdict(.skipped)]) == .failed)
        #expect(ExitPolicy.nothingChecked([verdict(.notApplicable), verdict(.skipped)]))
        // Every probe BROKEN made checks: the run failed, but not for want of checking.
        #expect(!ExitPolicy.nothingChecked([verdict(.broken)]))
        #expect(!ExitPolicy.nothingChecked([verdict(.error)]))
    }

    @Test func coverageMinimum() {
        #expect(ExitPolicy.status(transitionPercent: 99.5, minimum: 100) == .failed)
        #expect(ExitPolicy.status(transitionPercent: 100, minimum: 100) == nil)
        #expect(ExitPolicy.status(transitionPercent: 0, minimum: nil) == nil)
    }

    @Test func codesAreTheDocumentedOnes() {
        #expect([ExitStatus.passed, .failed, .invalid, .infrastructure].map(\.rawValue) == [0, 1, 2, 3])
        #expect(ExitPolicy.reportNotWritten == .infrastructure)
    }
}
