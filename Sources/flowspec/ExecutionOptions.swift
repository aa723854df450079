import ArgumentParser
import FlowSpecScenarios

/// How the run behaves when scenarios fail or hang.
struct ExecutionOptions: ParsableArguments {
    @Flag(
        name: .customLong("fail-fast"),
        help: "Stop starting scenarios after the first failure; the rest are reported skipped.")
    var failFast = false

    // Unconditional, so `--timeout -1` reaches `validate()` and its message instead of "missing value".
    @Option(
        name: .customLong("timeout"), parsing: .unconditional,
        help: "Seconds one scenario may take before it is stopped and reported failed (default: no limit).")
    var scenarioTimeout: Double?

    @Option(name: .customLong("allow-wait"), parsing: .unconditional, help: WaitAllowance.help)
    var allowWait = WaitAllowance(seconds: ScenarioRunner.defaultAllowWait)

    func validate() throws {
        // `inf` and `nan` parse as numbers too; neither is a limit anyone means.
        if let scenarioTimeout, !(scenarioTimeout > 0 && scenarioTimeout.isFinite) {
            throw ValidationError(
                "--timeout must be a positive number of seconds, such as 60 or 0.5; leave it out for no limit")
        }
    }

    func configure(_ runner: inout ScenarioRunner) {
        runner.failFast = failFast
        runner.scenarioTimeout = scenarioTimeout
        runner.allowWait = allowWait.seconds
    }
}
