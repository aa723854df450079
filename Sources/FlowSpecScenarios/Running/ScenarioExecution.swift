import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// One scenario, played once: its run context set up, its steps played in order, its expectations checked, and
/// its report built. The scheduler (`ScenarioRunner`) decides when it runs; this decides what it means.
struct ScenarioExecution {
    let scenario: Scenario
    let settings: ScenarioRunner

    /// What the steps found so far. A scenario stops at the first step that reached no backend (`infrastructure`),
    /// could not be checked (`notChecked`) or could not get its inputs (`halted`); failures accumulate.
    struct Findings {
        var failures: [String] = []
        var infrastructure: [String] = []
        var notChecked: String?
        var halted = false
        var paths: [(String, [String])] = []

        /// Nothing after this can be judged: the scenario's own expectations and unused exchanges are not checked.
        var cutShort: Bool { !infrastructure.isEmpty || notChecked != nil }
        var mustStop: Bool { halted || cutShort }
    }

    /// The seams of this scenario's run, made once before its first step.
    struct Setup {
        let runVars: [String: JSONValue]
        let redactor: Redactor
        let clock: any FlowClock
        let store: TokenStore
        let backend: ScriptedBackend
        let inputs: LayeredInputSource
        let log: ExchangeLog
        let broker: SessionBroker
        let trace: TraceRecorder?
        let interpreter: Interpreter
        let checker: ExpectationChecker
    }

    func run() async -> ScenarioReport {
        // A live scenario runs where its backend's client runs (one thread, no hop per request); scripted ones anywhere.
        guard scenario.live, let executor = settings.live?.preferredExecutor else { return await play() }
        return await withTaskExecutorPreference(executor) { await play() }
    }

    private func play() async -> ScenarioReport {
        let started = settings.stopwatch.seconds()
        let runVars = settings.vars.merging(scenario.vars) { $1 }
        if scenario.live {
            let missing = scenario.requiredVars.filter { runVars[$0] == nil }
            if !missing.isEmpty {
                return .skipped(
                    scenario,
                    because:
                        "live scenario needs the variable\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) (give them with --vars-file or --var; see docs/live.md)"
                )
            }
            if settings.live == nil {
                return .skipped(scenario, because: "live scenario, and no live backend was set up for this run")
            }
            // Where the backend is, is known now: an expectation no request can match under its base URL fails here.
            let problems = scenario.requestExpectationProblems(specs: settings.specs, vars: runVars)
            if !problems.isEmpty { return .failed(scenario, problems) }
        }
        let setup: Setup
        switch await prepare(runVars) {
        case .success(let made): setup = made
        case .failure(let report): return report.value
        }
        var findings = Findings()
        let multiStep = scenario.steps.count > 1
        for (index, step) in scenario.steps.enumerated() {
            await play(step, number: index + 1, labelled: multiStep, setup, &findings)
            if findings.mustStop || RunDeadline.isReached { break }
        }
        return await finish(findings, setup, started: started)
    }

    /// A report standing in for a set-up that could not be made; an `Error` only to travel in a `Result`.
    struct EarlyReport: Error { let value: ScenarioReport }

    private func prepare(_ runVars: [String: JSONValue]) async -> Result<Setup, EarlyReport> {
        // Run variables that hold credentials (`staff_password`, `phone_otp`…) are masked, and so is every
        // credential written in the scenario file.
        let redactor = settings.contexts.redactor()
        redactor.register(known: scenario.fileSecrets)
        // Run variables used as secrets, by this scenario's flows and inputs or by another scenario of the run; the
        // scenario's own `vars:` included (the factory's redactor knows only the command line's).
        redactor.registerVariables(
            runVars.filter { settings.secretVariables.contains($0.key) }, usedAsSecrets: settings.secretVariables)
        let clock: any FlowClock = scenario.live ? settings.liveClock : VirtualClock(start: scenario.clockStart)
        let startedAt = await clock.now()
        let resolved: (values: [String: [String]], commands: [String: String])
        do { resolved = try scenario.inputs.resolved(runVars, now: startedAt, redactor) } catch {
            var why = [error.message]
            if !scenario.live, scenario.exchanges.isEmpty {
                why.append("is it meant to run against a real backend? add `live: true` (docs/live.md)")
            }
            return .failure(EarlyReport(value: .failed(scenario, why.map(redactor.redact))))
        }
        registerSecretInputs(resolved.values, redactor)
        let store = TokenStore(scenario.store, redactor: redactor)
        let backend = ScriptedBackend(exchanges: scenario.exchanges, anyOrder: scenario.anyOrder, redactor: redactor)
        let inputs = LayeredInputSource(
            values: resolved.values, commands: resolved.commands, commandTimeout: settings.commandTimeout,
            runner: settings.commandRunner, redactor: redactor)
        let log = ExchangeLog()
        let broker = SessionBroker()
        let trace = settings.recordTraces ? TraceRecorder() : nil
        let target: RunContextFactory.Backend =
            scenario.live ? .live(settings.live!, waitLimit: settings.allowWait) : .scripted(backend)
        var context = settings.contexts.context(
            backend: target, clock: clock, store: store, inputs: inputs, redactor: redactor,
            vars: runVars, log: log, broker: broker)
        context.trace = trace
        context.stopwatch = settings.stopwatch
        return .success(
            Setup(
                runVars: runVars, redactor: redactor, clock: clock, store: store, backend: backend, inputs: inputs,
                log: log, broker: broker, trace: trace, interpreter: Interpreter(context: context),
                checker: ExpectationChecker(redactor: redactor)))
    }

    private func registerSecretInputs(_ values: [String: [String]], _ redactor: Redactor) {
        for (name, list) in values where settings.secretInputNames.contains(name) { list.forEach(redactor.register) }
    }

    // MARK: - Steps

    private func play(_ step: Scenario.Step, number: Int, labelled: Bool, _ setup: Setup, _ findings: inout Findings)
        async
    {
        switch step {
        case .wait(let wait):
            // Evaluated as the step starts: `30 - now % 30` reads the clock the earlier steps have moved.
            let seconds: Double
            switch wait.seconds(vars: setup.runVars, now: await setup.clock.now(), setup.redactor) {
            case .success(let value): seconds = value
            case .failure(let problem):
                findings.failures.append("step \(number): \(problem.message)")
                findings.halted = true
                return
            }
            if scenario.live, !(seconds <= settings.allowWait) {
                findings.notChecked = Durations.waitNotAllowed(
                    "step \(number)", seconds: seconds, limit: settings.allowWait)
                return
            }
            await setup.clock.sleep(seconds: seconds)
        case .setStore(let values, _):
            for (namespace, keys) in values {
                for (key, value) in keys {
                    if value == .null {
                        setup.store.delete(namespace, key)
                    } else {
                        setup.store.set(namespace, key, value)
                    }
                }
            }
        case .relaunch:
            // The app restarts: only what the store persists survives, exactly as its file format keeps it.
            let snapshot = setup.store.snapshot()
            guard let reloaded = TokenStoreFile.decode(TokenStoreFile.encode(snapshot)) else {
                findings.failures.append("step \(number): the token store did not survive a save and reload")
                return
            }
            setup.store.replace(with: reloaded)
            await setup.broker.reset()
        case .command(let template, let location):
            let env = InputTemplate.scope(vars: setup.runVars, now: await setup.clock.now(), setup.redactor)
            do {
                let line = try Evaluator.render(template, env)
                var command = ShellCommand(
                    line, environment: await setup.inputs.commandEnvironment(), timeoutSeconds: settings.commandTimeout)
                command.requiresOutput = false
                // What it prints is not shown: a command that changes the backend's world may print anything, secrets too.
                _ = try await command.run()
            } catch let error as EvaluationError {
                findings.failures.append(
                    setup.redactor.redact("step \(number): \(location): `command:`: \(error.message)"))
                findings.halted = true
            } catch {
                findings.failures.append(setup.redactor.redact("step \(number): the command failed: \(error)"))
                findings.halted = true
            }
        case .run(let r):
            await run(r, number: number, labelled: labelled, setup, &findings)
        }
    }

    private func run(_ r: Scenario.RunStep, number: Int, labelled: Bool, _ setup: Setup, _ findings: inout Findings)
        async
    {
        if !r.inputs.isEmpty {
            let stepStartedAt = await setup.clock.now()
            do {
                let more = try r.inputs.resolved(setup.runVars, now: stepStartedAt, setup.redactor)
                registerSecretInputs(more.values, setup.redactor)
                await setup.inputs.merge(values: more.values, commands: more.commands)
            } catch {
                findings.failures.append("step \(number): \(error.message)")
                findings.halted = true
                return
            }
        }
        let before = setup.log.entries.count
        let results = await runCopies(of: r, setup.interpreter)
        // Expected values that read the run variables (`${vars.qa_username}`) are rendered as they are checked.
        let expect: Expectation?
        do { expect = try await r.expect?.rendered(vars: setup.runVars, now: setup.clock.now(), setup.redactor) } catch
        {
            findings.paths += results.map { (r.flow.name, $0.path) }
            findings.failures.append((labelled ? "step \(number) (\(r.flow.name)): " : "") + error.message)
            return
        }
        for (copy, result) in results.enumerated() {
            findings.paths.append((r.flow.name, result.path))
            var label = labelled ? "step \(number) (\(r.flow.name))" : ""
            if r.parallel > 1 { label += (label.isEmpty ? "" : ", ") + "copy \(copy + 1) of \(r.parallel)" }
            await judge(result, expecting: expect, label: label, logFrom: before, setup, &findings)
        }
        if findings.mustStop { return }
        guard let e = expect else { return }
        findings.failures += setup.checker.checkCopies(
            e, results, label: labelled ? "step \(number) (\(r.flow.name)): " : "")
        findings.failures += setup.checker.checkStore(e, setup.store.snapshot())
        let requests = setup.log.entries.dropFirst(before).map(\.request)
        findings.failures += setup.checker.checkRequests(e, Array(requests))
    }

    /// One run of the step's flow, or `parallel:` copies at once (their results in copy order).
    private func runCopies(of r: Scenario.RunStep, _ interpreter: Interpreter) async -> [FlowResult] {
        guard r.parallel > 1 else { return [await interpreter.run(flow: r.flow.name)] }
        return await withTaskGroup(of: (Int, FlowResult).self) { group in
            // On Swift's global executor, not the live client's thread: copies that race each other must not wait
            // there one behind another's blocked request (LiveHTTPAdapter sends theirs through its pooled client).
            for copy in 0..<r.parallel {
                group.addTask(executorPreference: globalConcurrentExecutor) {
                    (copy, await interpreter.run(flow: r.flow.name))
                }
            }
            var collected: [(Int, FlowResult)] = []
            for await item in group { collected.append(item) }
            return collected.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// What one flow run of a step means for the scenario.
    private func judge(
        _ result: FlowResult, expecting expect: Expectation?, label: String, logFrom before: Int, _ setup: Setup,
        _ findings: inout Findings
    ) async {
        let prefix = label.isEmpty ? "" : label + ": "
        let causes = scenario.live ? setup.log.transportFailures(from: before).map(\.description) : []
        if scenario.live, !result.success, result.isInfrastructureFailure || !causes.isEmpty {
            // A backend that did not answer is not a broken promise: say what did not answer, and stop.
            let why = causes.isEmpty ? result.reason : causes.joined(separator: "; ")
            findings.infrastructure.append("\(prefix)no response from the backend — \(setup.redactor.redact(why))")
            return
        }
        if let why = result.skipReason, expect?.outcome != result.outcome {
            // Reaching an end that checks nothing is neither a pass nor a failure, unless the scenario set out to
            // reach exactly that end.
            findings.notChecked = findings.notChecked ?? setup.redactor.redact(prefix + why)
            return
        }
        if let e = expect {
            findings.failures += setup.checker.checkRun(e, result, label: label)
        } else if case .end = result.ending {
        } else if result.skipReason == nil {
            // A step with no expectation still may not end unhandled or in error unnoticed.
            findings.failures.append(
                "\(prefix)the flow ended `\(result.outcome)` — \(setup.redactor.redact(result.reason))")
        }
    }

    // MARK: - Verdict

    private func finish(_ findings: Findings, _ setup: Setup, started: Double) async -> ScenarioReport {
        var failures = findings.failures
        if !findings.cutShort, let written = scenario.expect {
            do {
                let e = try await written.rendered(vars: setup.runVars, now: setup.clock.now(), setup.redactor)
                failures += setup.checker.checkStore(e, setup.store.snapshot())
                failures += setup.checker.checkRequests(e, setup.log.entries.map(\.request))
            } catch {
                failures.append(error.message)
            }
        }
        if !scenario.live {
            failures = await setup.backend.problems + failures
            if findings.notChecked == nil { failures += await setup.backend.unused() }
            if scenario.exchanges.isEmpty, setup.log.entries.contains(where: { $0.failure?.kind == .notSent }) {
                failures.append(
                    "this scenario is scripted and scripts no `exchanges:`; to run it against a real backend, add `live: true`"
                )
            }
        }
        failures = findings.infrastructure + failures

        let entries = setup.log.entries
        // Masking every exchange is the costliest part of reporting: done for failures, or when a report shows them.
        let detailed = !failures.isEmpty || settings.recordExchanges
        let last = failures.isEmpty ? nil : entries.last.map { ExchangeExcerpt.describe($0, setup.redactor) }
        // A failure seen before the run stopped to skip still fails it: skipping never hides a broken promise.
        let status: ScenarioReport.Status =
            !failures.isEmpty ? .failed : findings.notChecked != nil ? .skipped : .passed
        return ScenarioReport(
            name: scenario.name, file: scenario.file, tags: scenario.tags,
            status: status, failures: failures.map(setup.redactor.redact),
            paths: findings.paths, lastExchange: last, durationSeconds: settings.stopwatch.seconds() - started,
            infrastructureFailure: !findings.infrastructure.isEmpty,
            skipReason: status == .skipped ? findings.notChecked : nil,
            runs: setup.trace?.traces ?? [],
            exchanges: detailed ? entries.map { ExchangeRecord($0, redactor: setup.redactor) } : [])
    }
}
