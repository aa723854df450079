import FlowSpecProbe
import FlowSpecRuntime
import FlowSpecScenarios

/// A command's exit status, as documented in docs/cli.md.
package enum ExitStatus: Int32, Sendable {
    /// Something was checked and nothing failed.
    case passed = 0
    /// A promise broke, or nothing was checked at all.
    case failed = 1
    /// A bad spec, file or usage.
    case invalid = 2
    /// The backend did not answer, or a file the user asked for could not be written.
    case infrastructure = 3
}

/// Every rule that turns an outcome into an exit status, in one place, for every command.
package enum ExitPolicy {
    /// A report the user asked for could not be written: the run's verdicts may be right, but the user cannot see
    /// them where they asked, so the run is not a pass; it is the machine's fault, not the spec's.
    package static let reportNotWritten = ExitStatus.infrastructure

    /// `probe --reproduce`: a reproduction that could not be written is a report that could not be written.
    package static let reproductionNotWritten = ExitStatus.infrastructure

    /// Said after the summary when a scenario run checked nothing, so its exit 1 has its reason.
    package static let nothingCheckedInScenarios =
        "nothing was checked: every scenario was skipped (the reasons are above); a run that checks nothing is not a pass"

    /// Said after the verdicts when a probe run checked nothing.
    package static let nothingCheckedInProbes =
        "nothing was checked: every probe was skipped or not applicable (see the reasons above); a run that checks nothing is not a pass"

    /// `run` and `coverage`: failed when a promise broke, else infrastructure when a backend did not answer, else
    /// failed when every scenario was skipped (a run that checked nothing is not green), else nil.
    package static func status(of reports: [ScenarioReport]) -> ExitStatus? {
        // A broken promise outranks a backend that did not answer: it is the regression signal.
        if reports.contains(where: { $0.status == .failed && !$0.infrastructureFailure }) { return .failed }
        if reports.contains(where: { $0.infrastructureFailure }) { return .infrastructure }
        if nothingChecked(reports) { return .failed }
        return nil
    }

    /// Every scenario of the run was skipped: whatever the reasons, the run proved nothing.
    package static func nothingChecked(_ reports: [ScenarioReport]) -> Bool {
        !reports.isEmpty && !reports.contains { $0.status != .skipped }
    }

    /// `probe`: failed when a promise broke or a check could not be made for a reason of the backend's or the flows'
    /// (a login that failed); else infrastructure when a backend did not answer; else failed when nothing at all
    /// was checked (every probe skipped or not applicable). nil: at least one check was made and all held.
    package static func status(of verdicts: [ProbeVerdict]) -> ExitStatus? {
        if verdicts.contains(where: { $0.status == .broken || ($0.status == .error && !$0.infrastructure) }) {
            return .failed
        }
        if verdicts.contains(where: \.infrastructure) { return .infrastructure }
        if nothingChecked(verdicts) { return .failed }
        return nil
    }

    /// No probe made a check: every one was skipped or not applicable.
    package static func nothingChecked(_ verdicts: [ProbeVerdict]) -> Bool {
        !verdicts.contains { $0.status == .held || $0.status == .broken || $0.status == .error }
    }

    /// `coverage --min`: transition coverage below the minimum the user set fails the run.
    package static func status(transitionPercent: Double, minimum: Double?) -> ExitStatus? {
        guard let minimum, transitionPercent < minimum else { return nil }
        return .failed
    }

    /// `exec`: one flow run. A failure the flow reached because the backend never answered (`noResponse`: the
    /// run's exchanges that got no answer) is infrastructure, even when the flow handles it with `unreachable:`.
    package static func status(of result: FlowResult, noResponse: Bool = false) -> ExitStatus {
        if !result.success, noResponse { return .infrastructure }
        return switch result.ending {
        case .end(_, let success, _, _): success ? .passed : .failed
        case .unhandled: .failed
        case .error: .invalid
        case .infrastructure: .infrastructure
        // The flow could not do what it was run for (the reason is printed): nothing was checked, so it is not a
        // pass; a script that asks "does login still work?" must not read a skip as yes.
        case .skipped: .failed
        }
    }
}
