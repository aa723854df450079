import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// Schedules scenarios — scripted ones concurrently (`jobs`), live ones one at a time — under the run's fail-fast
/// and time limit, reporting in the order given. Each scenario itself is played by a `ScenarioExecution`, which
/// reads its settings from here.
package struct ScenarioRunner: Sendable {
    package var specs: SpecSet { contexts.specs }
    package var jobs: Int
    /// Run variables from the command line; a scenario's own `vars:` add to them.
    package var vars: [String: JSONValue] { contexts.vars }
    /// Makes each scenario's run context (and its redactor) as `exec` and `probe` make theirs.
    let contexts: RunContextFactory
    /// The backend live scenarios talk to; nil skips them.
    package var live: (any HTTPAdapter)?
    /// Seconds an input command may take.
    package var commandTimeout: Double
    /// Inputs any flow uses as secrets (declared `secret: true` or `type: code`, or sent as a credential); their
    /// values are masked wherever they appear.
    let secretInputNames: Set<String>
    /// Run variables some flow or scenario of this run uses as a secret (`SecretUses`): masked in every scenario,
    /// the scenario's own `vars:` included. Set by `run(_:onFinish:)` from the scenarios it plays.
    var secretVariables: Set<String>
    /// After the first failure, start no more scenarios; those not started are reported skipped.
    package var failFast = false
    /// Seconds one scenario may take before it is abandoned and reported failed; nil waits for ever.
    package var scenarioTimeout: Double?
    /// The clock `scenarioTimeout` is measured on: the machine's, unless a test decides when time is up.
    package var timeoutClock: any FlowClock = SystemClock()
    /// What scenario and exchange durations are measured with: the monotonic clock, unless a test fixes them.
    package var stopwatch: any Stopwatch = MonotonicStopwatch()
    /// What runs input commands: a shell, unless a test answers for it.
    package var commandRunner: any CommandRunner = ShellCommandRunner()
    /// Keep the masked exchanges of passed scenarios too (failed ones always keep them): for `--verbose`
    /// and the JSON and HTML reports.
    package var recordExchanges = true
    /// Record each run's states, edges and false guards (`ScenarioReport.runs`): for coverage and the JSON and HTML
    /// reports. Without them a run records nothing it will not show; `path:` expectations read the run's own path.
    package var recordTraces = true
    /// The time live scenarios see: the machine's clock, unless a test that embeds its backend shares one clock
    /// with it, so `wait` steps and token expiry pass without sleeping.
    package var liveClock: any FlowClock = SystemClock()
    /// The longest a live scenario may really wait (a `wait` step, or a flow's `wait` state), in seconds. A
    /// longer wait skips the scenario with the reason: what it waits for (token expiry) cannot be checked in
    /// time, and it must not pass unchecked. `--allow-wait` raises it for nightly runs.
    package var allowWait: Double = ScenarioRunner.defaultAllowWait
    package static let defaultAllowWait: Double = 60

    package init(
        specs: SpecSet, jobs: Int, vars: [String: JSONValue] = [:], live: (any HTTPAdapter)? = nil,
        commandTimeout: Double = 30
    ) {
        contexts = RunContextFactory(specs: specs, vars: vars, origin: .scenario)
        self.jobs = max(1, jobs)
        self.live = live
        self.commandTimeout = commandTimeout
        secretInputNames = contexts.secretUses.inputs
        secretVariables = contexts.secretUses.variables
    }

    /// What the flows and these scenarios' inputs use as secrets: a variable one scenario feeds to a password is
    /// masked in the others too.
    func secretVariables(of scenarios: [Scenario]) -> Set<String> {
        var uses = contexts.secretUses
        for scenario in scenarios {
            uses.add(inputs: scenario.inputs.values)
            for step in scenario.steps { if case .run(let r) = step { uses.add(inputs: r.inputs.values) } }
        }
        return uses.variables
    }

    /// Runs every scenario; `onFinish` sees each report as soon as its scenario ends (for progress output).
    /// Live scenarios run one at a time: they share accounts on one backend, and "the latest code sent to
    /// this address" is only meaningful when one login per account is in flight.
    package func run(
        _ scenarios: [Scenario], onFinish: @escaping @Sendable (Int, ScenarioReport) async -> Void = { _, _ in }
    ) async -> [ScenarioReport] {
        var runner = self
        runner.secretVariables = secretVariables(of: scenarios)
        return await runner.schedule(scenarios, onFinish: onFinish)
    }

    private func schedule(_ scenarios: [Scenario], onFinish: @escaping @Sendable (Int, ScenarioReport) async -> Void)
        async -> [ScenarioReport]
    {
        var reports = [ScenarioReport?](repeating: nil, count: scenarios.count)
        let gate = SerialGate()
        let finishLine = SerialGate()
        let failure = FailureSignal()
        let queue = IndexQueue(count: scenarios.count)
        // `jobs` workers, each playing scenarios back to back as it takes them from the queue. A task per scenario
        // woke a sleeping thread for each one: a thread switch per scenario, more work than a short scripted scenario
        // itself (docs/performance.md, The scheduler).
        await withTaskGroup(of: [(Int, ScenarioReport)].self) { group in
            for _ in 0..<min(jobs, scenarios.count) {
                group.addTask {
                    var played: [(Int, ScenarioReport)] = []
                    /// Plays the scenario and reports it; false once fail-fast says to start no more.
                    func play(_ index: Int) async -> Bool {
                        let scenario = scenarios[index]
                        // Queued live scenarios have not started: the check for an earlier failure happens once it is
                        // their turn, inside the gate, so one that failed while they waited stops them.
                        let report =
                            scenario.live
                            ? await gate.serially { await self.runUnlessStopped(scenario, failure) }
                            : await self.runUnlessStopped(scenario, failure)
                        played.append((index, report))
                        // One at a time, as progress output expects.
                        await finishLine.serially { await onFinish(index, report) }
                        return !(await failure.raised)
                    }
                    var next = queue.take()
                    while let index = next {
                        guard scenarios[index].live, let executor = self.live?.preferredExecutor else {
                            next = await play(index) ? queue.take() : nil
                            continue
                        }
                        // Live scenarios run one at a time where the live client runs. The worker stays on that thread
                        // while the scenarios it takes are live, so neither it nor the gate's hand-over to the other
                        // workers hops between threads for each scenario.
                        next = await withTaskExecutorPreference(executor) {
                            var current = index
                            while await play(current) {
                                let following = queue.take()
                                guard let following, scenarios[following].live else { return following }
                                current = following
                            }
                            return nil
                        }
                    }
                    return played
                }
            }
            for await played in group {
                for (index, report) in played { reports[index] = report }
            }
        }
        for index in reports.indices where reports[index] == nil {
            let report = ScenarioReport.stoppedByFailFast(scenarios[index])
            reports[index] = report
            await onFinish(index, report)
        }
        return reports.map { $0! }
    }

    /// Runs the scenario within its time limit; with `failFast`, reports it skipped instead if a scenario has
    /// already failed, and raises `failure` if this one fails.
    func runUnlessStopped(_ scenario: Scenario, _ failure: FailureSignal) async -> ScenarioReport {
        guard failFast else { return await runWithinTimeout(scenario) }
        if await failure.raised { return ScenarioReport.stoppedByFailFast(scenario) }
        let report = await runWithinTimeout(scenario)
        if report.status == .failed { await failure.raise() }
        return report
    }

    /// Runs one scenario, abandoning it after `scenarioTimeout` seconds. An abandoned scenario is cancelled
    /// but not awaited: a request stuck in a backend must not hold the whole run.
    ///
    /// The timer stops a scenario that waits (a silent backend, a hung command). A scenario busy computing (a huge
    /// response parsed, a flow looping through its steps) would keep the thread the timer needs, so the scenario also
    /// carries the deadline and its long loops stop themselves once it has passed (`RunDeadline`): on the machine's
    /// clock when the runner measures time on it, else only when the timer fires. A report whose work stopped for the
    /// deadline is the timed-out one; a scenario that finished its work keeps its own report.
    func runWithinTimeout(_ scenario: Scenario) async -> ScenarioReport {
        // A limit no clock reaches (infinity, 1e300) is no limit; converting it to a `Duration` would trap.
        guard let limit = scenarioTimeout, limit < ScenarioRunner.unreachableTimeout else { return await run(scenario) }
        let race = TimeoutRace<ScenarioReport>()
        let deadline = RunDeadline(afterSeconds: timeoutClock is SystemClock ? limit : nil)
        let work = Task {
            let report = await RunDeadline.$current.withValue(deadline) { await self.run(scenario) }
            await race.finish(deadline.wasObserved ? .timedOut(scenario, after: limit) : report)
        }
        let timer = Task {
            await timeoutClock.sleep(seconds: limit)
            // A cancelled sleep returns early: the scenario finished first and the race is already decided.
            guard !Task.isCancelled else { return }
            deadline.expire()
            await race.finish(.timedOut(scenario, after: limit))
        }
        let report = await race.result()
        work.cancel()
        timer.cancel()
        return report
    }

    /// About 31 years: at or beyond it `scenarioTimeout` never fires.
    static let unreachableTimeout = 1e9

    /// The limit as the user wrote it: `1 s`, `0.5 s`, `0.04 s` (not a rounded `0.0 s`).
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, abs(value) < unreachableTimeout else { return "\(value) s" }
        return value == value.rounded() ? "\(Int(value)) s" : String(format: "%g s", value)
    }

    /// Plays one scenario now, whatever the schedule (no time limit, no fail-fast).
    package func run(_ scenario: Scenario) async -> ScenarioReport {
        var runner = self
        runner.secretVariables.formUnion(secretVariables(of: [scenario]))
        return await ScenarioExecution(scenario: scenario, settings: runner).run()
    }
}
