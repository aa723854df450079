import FlowSpecLanguage

/// The reports a scenario gets when it does not run to its end: every one names the scenario the same way and
/// carries no run, so they are built here and nowhere else.
extension ScenarioReport {
    /// Not run, or stopped before anything could be checked, with the reason the report shows.
    static func skipped(_ scenario: Scenario, because reason: String) -> ScenarioReport {
        ScenarioReport(
            name: scenario.name, file: scenario.file, tags: scenario.tags, status: .skipped, failures: [], paths: [],
            lastExchange: nil, durationSeconds: 0, infrastructureFailure: false, skipReason: reason)
    }

    /// Failed without a run to show: its set-up could not be made, or it ran out of time.
    static func failed(_ scenario: Scenario, _ failures: [String], durationSeconds: Double = 0) -> ScenarioReport {
        ScenarioReport(
            name: scenario.name, file: scenario.file, tags: scenario.tags, status: .failed, failures: failures,
            paths: [],
            lastExchange: nil, durationSeconds: durationSeconds, infrastructureFailure: false, skipReason: nil)
    }

    static let failFastReason = "not run: --fail-fast stopped the run at the first failure"

    static func stoppedByFailFast(_ scenario: Scenario) -> ScenarioReport {
        .skipped(scenario, because: failFastReason)
    }

    static func timedOut(_ scenario: Scenario, after limit: Double) -> ScenarioReport {
        .failed(
            scenario, ["timed out after \(ScenarioRunner.seconds(limit)) (--timeout); the scenario was stopped"],
            durationSeconds: limit)
    }
}
