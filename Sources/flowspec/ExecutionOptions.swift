import ArgumentParser
import FlowSpecScenarios

/// How the run behaves when scenarios fail or hang.
struct ExecutionOptions: ParsableArguments {
    @Flag(name: .customLong("fail-fast"), help: "Stop starting scenarios after the first failure; the rest are reported skipped.")
    var failFast = false

    @Option(name: .customLong("timeout"), help: "Seconds one scenario may take before it is stopped and reported failed (default: no limit).")
    var scenarioTimeout: Double?

    func validate() throws {
        if let scenarioTimeout, !(scenarioTimeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func configure(_ runner: inout ScenarioRunner) {
        runner.failFast = failFast
        runner.scenarioTimeout = scenarioTimeout
    }
}
