import Foundation
import FlowSpecLanguage
import FlowSpecRuntime

/// Plays scenarios — scripted ones against their exchanges, live ones against a real backend — concurrently,
/// reporting in the order given.
public struct ScenarioRunner: Sendable {
    public var specs: SpecSet
    public var jobs: Int
    /// Run variables from the command line; a scenario's own `vars:` add to them.
    public var vars: [String: JSONValue]
    /// The backend live scenarios talk to; nil skips them.
    public var live: (any HTTPAdapter)?
    /// Seconds an input command may take.
    public var commandTimeout: Double
    /// Inputs any flow declares secret; their values are masked wherever they appear.
    let secretInputNames: Set<String>
    /// Secret-looking run variables' values, found once.
    let variableSecrets: Set<String>
    /// After the first failure, start no more scenarios; those not started are reported skipped.
    public var failFast = false
    /// Seconds one scenario may take before it is abandoned and reported failed; nil waits for ever.
    public var scenarioTimeout: Double?
    /// Keep the masked exchanges of passed scenarios too (failed ones always keep them): for `--verbose`
    /// and the JSON and HTML reports.
    public var recordExchanges = true
    /// The time live scenarios see: the machine's clock, unless a test that embeds its backend shares one clock
    /// with it, so `wait` steps and token expiry pass without sleeping.
    public var liveClock: any FlowClock = SystemClock()
    /// The longest a live scenario may really wait (a `wait` step, or a flow's `wait` state), in seconds. A
    /// longer wait skips the scenario with the reason: what it waits for (token expiry) cannot be checked in
    /// time, and it must not pass unchecked. `--allow-wait` raises it for nightly runs.
    public var allowWait: Double = ScenarioRunner.defaultAllowWait
    public static let defaultAllowWait: Double = 60

    public init(specs: SpecSet, jobs: Int, vars: [String: JSONValue] = [:], live: (any HTTPAdapter)? = nil, commandTimeout: Double = 30) {
        self.specs = specs
        self.jobs = max(1, jobs)
        self.vars = vars
        self.live = live
        self.commandTimeout = commandTimeout
        secretInputNames = Set(specs.flows.values.flatMap { $0.inputs.filter(\.secret).map(\.name) })
        variableSecrets = Redactor.secrets { $0.registerVariables(vars) }
    }

    /// Runs every scenario; `onFinish` sees each report as soon as its scenario ends (for progress output).
    /// Live scenarios run one at a time: they share accounts on one backend, and "the latest code sent to
    /// this address" is only meaningful when one login per account is in flight.
    public func run(_ scenarios: [Scenario], onFinish: @escaping @Sendable (Int, ScenarioReport) async -> Void = { _, _ in }) async -> [ScenarioReport] {
        var reports = [ScenarioReport?](repeating: nil, count: scenarios.count)
        let gate = SerialGate()
        let failure = FailureSignal()
        await withTaskGroup(of: (Int, ScenarioReport).self) { group in
            var next = 0
            func launch() {
                let index = next
                let scenario = scenarios[index]
                group.addTask {
                    guard scenario.live else { return (index, await self.runUnlessStopped(scenario, failure)) }
                    // Queued live scenarios have not started: the check for an earlier failure happens once it is
                    // their turn, inside the gate, so one that failed while they waited stops them.
                    return (index, await gate.serially { await self.runUnlessStopped(scenario, failure) })
                }
                next += 1
            }
            while next < min(jobs, scenarios.count) { launch() }
            while let (index, report) = await group.next() {
                reports[index] = report
                await onFinish(index, report)
                if next < scenarios.count, !(await failure.raised) { launch() }
            }
        }
        for index in reports.indices where reports[index] == nil {
            let report = ScenarioRunner.stoppedByFailFast(scenarios[index])
            reports[index] = report
            await onFinish(index, report)
        }
        return reports.map { $0! }
    }

    /// Runs the scenario within its time limit; with `failFast`, reports it skipped instead if a scenario has
    /// already failed, and raises `failure` if this one fails.
    func runUnlessStopped(_ scenario: Scenario, _ failure: FailureSignal) async -> ScenarioReport {
        guard failFast else { return await runWithinTimeout(scenario) }
        if await failure.raised { return ScenarioRunner.stoppedByFailFast(scenario) }
        let report = await runWithinTimeout(scenario)
        if report.status == .failed { await failure.raise() }
        return report
    }

    static func stoppedByFailFast(_ scenario: Scenario) -> ScenarioReport {
        ScenarioReport(name: scenario.name, file: scenario.file, tags: scenario.tags, status: .skipped, failures: [],
                       paths: [], lastExchange: nil, durationSeconds: 0, infrastructureFailure: false,
                       skipReason: "not run: --fail-fast stopped the run at the first failure")
    }

    /// Runs one scenario, abandoning it after `scenarioTimeout` seconds. An abandoned scenario is cancelled
    /// but not awaited: a request stuck in a backend must not hold the whole run.
    func runWithinTimeout(_ scenario: Scenario) async -> ScenarioReport {
        // A limit no clock reaches (infinity, 1e300) is no limit; converting it to a `Duration` would trap.
        guard let limit = scenarioTimeout, limit < ScenarioRunner.unreachableTimeout else { return await run(scenario) }
        let race = TimeoutRace<ScenarioReport>()
        let work = Task { await race.finish(await self.run(scenario)) }
        let timer = Task {
            try? await Task.sleep(for: .seconds(limit))
            await race.finish(ScenarioReport(
                name: scenario.name, file: scenario.file, tags: scenario.tags, status: .failed,
                failures: ["timed out after \(ScenarioRunner.seconds(limit)) (--timeout); the scenario was stopped"],
                paths: [], lastExchange: nil, durationSeconds: limit, infrastructureFailure: false, skipReason: nil))
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

    public func run(_ scenario: Scenario) async -> ScenarioReport {
        let started = ContinuousClock.now
        let runVars = vars.merging(scenario.vars) { $1 }
        func skipped(_ reason: String) -> ScenarioReport {
            ScenarioReport(name: scenario.name, file: scenario.file, tags: scenario.tags, status: .skipped, failures: [], paths: [],
                           lastExchange: nil, durationSeconds: 0, infrastructureFailure: false, skipReason: reason)
        }
        if scenario.live {
            let missing = scenario.requiredVars.filter { runVars[$0] == nil }
            if !missing.isEmpty {
                return skipped("live scenario needs the variable\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) (give them with --vars-file or --var; see docs/live.md)")
            }
            if live == nil { return skipped("live scenario, and no live backend was set up for this run") }
        }
        let redactor = Redactor()
        registerSecrets(scenario, redactor)
        let clock: any FlowClock = scenario.live ? liveClock : VirtualClock(start: scenario.clockStart)
        let startedAt = await clock.now()
        let resolved: (values: [String: [String]], commands: [String: String])
        do { resolved = try resolve(scenario.inputs, runVars, now: startedAt, redactor) } catch {
            var why = [error.message]
            if !scenario.live, scenario.exchanges.isEmpty { why.append("is it meant to run against a real backend? add `live: true` (docs/live.md)") }
            return ScenarioReport(name: scenario.name, file: scenario.file, tags: scenario.tags, status: .failed,
                                  failures: why.map(redactor.redact), paths: [], lastExchange: nil,
                                  durationSeconds: 0, infrastructureFailure: false, skipReason: nil)
        }
        registerSecretInputs(resolved.values, redactor)
        let store = TokenStore(scenario.store, redactor: redactor)
        let backend = ScriptedBackend(exchanges: scenario.exchanges, anyOrder: scenario.anyOrder, redactor: redactor)
        let adapter: any HTTPAdapter = scenario.live ? CredentialHarvestingAdapter(live!, redactor: redactor) : backend
        let inputs = LayeredInputSource(values: resolved.values, commands: resolved.commands, commandTimeout: commandTimeout)
        let log = ExchangeLog()
        let broker = SessionBroker()
        let trace = TraceRecorder()
        var context = RunContext(specs: specs, adapter: adapter, clock: clock, store: store, inputs: inputs,
                                 vars: runVars, redactor: redactor, broker: broker, log: log)
        context.trace = trace
        if scenario.live { context.waitLimit = allowWait }
        let interpreter = Interpreter(context: context)
        let checker = ExpectationChecker(redactor: redactor)

        var failures: [String] = []
        var infrastructure: [String] = []
        var notChecked: String?
        var paths: [(String, [String])] = []
        let multiStep = scenario.steps.count > 1
        steps: for (stepIndex, step) in scenario.steps.enumerated() {
            switch step {
            case .wait(let seconds, _):
                if scenario.live, !(seconds <= allowWait) {
                    notChecked = Durations.waitNotAllowed("step \(stepIndex + 1)", seconds: seconds, limit: allowWait)
                    break steps
                }
                await clock.sleep(seconds: seconds)
            case .setStore(let values, _):
                for (namespace, keys) in values {
                    for (key, value) in keys {
                        if value == .null { await store.delete(namespace, key) } else { await store.set(namespace, key, value) }
                    }
                }
            case .relaunch:
                // The app restarts: only what the store persists survives, exactly as its file format keeps it.
                let snapshot = await store.snapshot()
                guard let reloaded = TokenStoreFile.decode(TokenStoreFile.encode(snapshot)) else {
                    failures.append("step \(stepIndex + 1): the token store did not survive a save and reload")
                    break
                }
                await store.replace(with: reloaded)
                await broker.reset()
            case .run(let r):
                if !r.inputs.isEmpty {
                    let stepStartedAt = await clock.now()
                    do {
                        let more = try resolve(r.inputs, runVars, now: stepStartedAt, redactor)
                        registerSecretInputs(more.values, redactor)
                        await inputs.merge(values: more.values, commands: more.commands)
                    } catch {
                        failures.append("step \(stepIndex + 1): \(error.message)")
                        break steps
                    }
                }
                let before = await log.entries.count
                let results: [FlowResult]
                if r.parallel > 1 {
                    results = await withTaskGroup(of: (Int, FlowResult).self) { group in
                        for copy in 0..<r.parallel { group.addTask { (copy, await interpreter.run(flow: r.flow.name)) } }
                        var collected: [(Int, FlowResult)] = []
                        for await item in group { collected.append(item) }
                        return collected.sorted { $0.0 < $1.0 }.map(\.1)
                    }
                } else {
                    results = [await interpreter.run(flow: r.flow.name)]
                }
                for (copy, result) in results.enumerated() {
                    paths.append((r.flow.name, result.path))
                    var label = multiStep ? "step \(stepIndex + 1) (\(r.flow.name))" : ""
                    if r.parallel > 1 { label += (label.isEmpty ? "" : ", ") + "copy \(copy + 1) of \(r.parallel)" }
                    let causes = scenario.live ? await log.transportFailures(from: before).map(\.description) : []
                    if scenario.live, !result.success, result.isInfrastructureFailure || !causes.isEmpty {
                        // A backend that did not answer is not a broken promise: say what did not answer, and stop.
                        let why = causes.isEmpty ? result.reason : causes.joined(separator: "; ")
                        infrastructure.append("\(label.isEmpty ? "" : label + ": ")no response from the backend — \(redactor.redact(why))")
                        continue
                    }
                    if let why = result.skipReason, r.expect?.outcome != result.outcome {
                        // Reaching an end that checks nothing is neither a pass nor a failure, unless the
                        // scenario set out to reach exactly that end.
                        notChecked = notChecked ?? redactor.redact((label.isEmpty ? "" : label + ": ") + why)
                        continue
                    }
                    if let e = r.expect {
                        failures += checker.checkRun(e, result, label: label)
                    } else if case .end = result.ending {} else if result.skipReason == nil {
                        // A step with no expectation still may not end unhandled or in error unnoticed.
                        failures.append("\(label.isEmpty ? "" : label + ": ")the flow ended `\(result.outcome)` — \(redactor.redact(result.reason))")
                    }
                }
                if !infrastructure.isEmpty || notChecked != nil { break steps }
                if let e = r.expect {
                    failures += checker.checkCopies(e, results, label: multiStep ? "step \(stepIndex + 1) (\(r.flow.name)): " : "")
                }
                if let e = r.expect {
                    failures += checker.checkStore(e, await store.snapshot())
                    let requests = await log.entries.dropFirst(before).map(\.request)
                    failures += checker.checkRequests(e, Array(requests))
                }
            }
        }
        if infrastructure.isEmpty, notChecked == nil, let e = scenario.expect {
            failures += checker.checkStore(e, await store.snapshot())
            failures += checker.checkRequests(e, await log.entries.map(\.request))
        }
        if !scenario.live {
            failures = await backend.problems + failures
            if notChecked == nil { failures += await backend.unused() }
            if scenario.exchanges.isEmpty, await log.entries.contains(where: { $0.failure?.kind == .unscripted }) {
                failures.append("this scenario is scripted and scripts no `exchanges:`; to run it against a real backend, add `live: true`")
            }
        }
        failures = infrastructure + failures

        let entries = await log.entries
        // Masking every exchange is the costliest part of reporting: done for failures, or when a report shows them.
        let detailed = !failures.isEmpty || recordExchanges
        let last = failures.isEmpty ? nil : entries.last.map { ScenarioRunner.describe($0, redactor) }
        // A failure seen before the run stopped to skip still fails it: skipping never hides a broken promise.
        let status: ScenarioReport.Status = !failures.isEmpty ? .failed : notChecked != nil ? .skipped : .passed
        return ScenarioReport(name: scenario.name, file: scenario.file, tags: scenario.tags,
                              status: status, failures: failures.map(redactor.redact),
                              paths: paths, lastExchange: last, durationSeconds: (ContinuousClock.now - started).seconds,
                              infrastructureFailure: !infrastructure.isEmpty, skipReason: status == .skipped ? notChecked : nil,
                              runs: trace.traces, exchanges: detailed ? entries.map { ExchangeRecord($0, redactor: redactor) } : [])
    }

    func resolve(_ inputs: ScenarioInputs, _ vars: [String: JSONValue], now: Double, _ redactor: Redactor) throws(InputError) -> (values: [String: [String]], commands: [String: String]) {
        try inputs.resolved(vars, now: now, redactor)
    }

    /// Run variables that hold credentials (`staff_password`, `phone_otp`, `supabase_anon_key`…) are masked too,
    /// and so is every credential written in the scenario file.
    func registerSecrets(_ scenario: Scenario, _ redactor: Redactor) {
        redactor.register(known: variableSecrets)
        redactor.register(known: scenario.fileSecrets)
    }

    func registerSecretInputs(_ values: [String: [String]], _ redactor: Redactor) {
        for (name, list) in values where secretInputNames.contains(name) { list.forEach(redactor.register) }
    }

    static func describe(_ entry: ExchangeLog.Entry, _ redactor: Redactor) -> String {
        var text = "\(entry.request.method) \(redactor.redactURL(entry.request.pathWithQuery))"
        if let json = entry.request.json { text += " " + redactor.maskedJSON(json).compactJSON }
        if let response = entry.response {
            text += "\n      → \(response.status)"
            switch response.json {
            case .null: break
            case .string(let s): text += " " + redactor.redact(String(s.prefix(300)))
            default:
                let body = redactor.maskedJSON(response.json).compactJSON
                text += " " + (body.count > 300 ? String(body.prefix(300)) + "…" : body)
            }
        } else if let failure = entry.failure {
            text += "\n      → no response: \(redactor.redact(failure.cause))"
        }
        return text
    }
}

/// The first of several tasks to finish wins; later finishers are ignored.
actor TimeoutRace<T: Sendable> {
    private var value: T?
    private var waiter: CheckedContinuation<T, Never>?

    func finish(_ result: T) {
        guard value == nil else { return }
        value = result
        waiter?.resume(returning: result)
        waiter = nil
    }

    func result() async -> T {
        if let value { return value }
        return await withCheckedContinuation { waiter = $0 }
    }
}

/// Raised by the first failed scenario under `--fail-fast`; scenarios not yet started check it.
actor FailureSignal {
    private(set) var raised = false
    func raise() { raised = true }
}

/// Runs closures one at a time, in arrival order.
actor SerialGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func serially<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        if busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        let result = await body()
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        return result
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
