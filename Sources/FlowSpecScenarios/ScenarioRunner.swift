import Foundation
import FlowSpecLanguage
import FlowSpecRuntime

/// Plays scenarios against the scripted backend, concurrently, reporting in the order given.
public struct ScenarioRunner: Sendable {
    public var specs: SpecSet
    public var jobs: Int
    /// Run variables from the command line; a scenario's own `vars:` add to them.
    public var vars: [String: JSONValue]

    public init(specs: SpecSet, jobs: Int, vars: [String: JSONValue] = [:]) {
        self.specs = specs
        self.jobs = max(1, jobs)
        self.vars = vars
    }

    /// Runs every scenario; `onFinish` sees each report as soon as its scenario ends (for progress output).
    public func run(_ scenarios: [Scenario], onFinish: @escaping @Sendable (Int, ScenarioReport) async -> Void = { _, _ in }) async -> [ScenarioReport] {
        var reports = [ScenarioReport?](repeating: nil, count: scenarios.count)
        await withTaskGroup(of: (Int, ScenarioReport).self) { group in
            var next = 0
            func launch() {
                let index = next
                let scenario = scenarios[index]
                group.addTask { (index, await self.run(scenario)) }
                next += 1
            }
            while next < min(jobs, scenarios.count) { launch() }
            while let (index, report) = await group.next() {
                reports[index] = report
                await onFinish(index, report)
                if next < scenarios.count { launch() }
            }
        }
        return reports.map { $0! }
    }

    public func run(_ scenario: Scenario) async -> ScenarioReport {
        let started = ContinuousClock.now
        let redactor = Redactor()
        registerSecretInputs(scenario, redactor)
        let store = TokenStore(scenario.store, redactor: redactor)
        let backend = ScriptedBackend(exchanges: scenario.exchanges, anyOrder: scenario.anyOrder, redactor: redactor)
        let inputs = ListInputSource(scenario.inputs)
        let log = ExchangeLog()
        let broker = SessionBroker()
        let clock = VirtualClock(start: scenario.clockStart)
        let context = RunContext(specs: specs, adapter: backend, clock: clock, store: store, inputs: inputs,
                                 vars: vars.merging(scenario.vars) { $1 }, redactor: redactor, broker: broker, log: log)
        let interpreter = Interpreter(context: context)
        let checker = ExpectationChecker(redactor: redactor)

        var failures: [String] = []
        var paths: [(String, [String])] = []
        let multiStep = scenario.steps.count > 1
        for (stepIndex, step) in scenario.steps.enumerated() {
            switch step {
            case .wait(let seconds, _):
                await clock.sleep(seconds: seconds)
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
                if !r.inputs.isEmpty { await inputs.merge(r.inputs) }
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
                    if let e = r.expect {
                        failures += checker.checkRun(e, result, label: label)
                    } else if case .end = result.ending {} else {
                        // A step with no expectation still may not end unhandled or in error unnoticed.
                        failures.append("\(label.isEmpty ? "" : label + ": ")the flow ended `\(result.outcome)` — \(redactor.redact(result.reason))")
                    }
                }
                if let e = r.expect {
                    failures += checker.checkStore(e, await store.snapshot())
                    let requests = await log.entries.dropFirst(before).map(\.request)
                    failures += checker.checkRequests(e, Array(requests))
                }
            }
        }
        if let e = scenario.expect {
            failures += checker.checkStore(e, await store.snapshot())
            failures += checker.checkRequests(e, await log.entries.map(\.request))
        }
        let problems = await backend.problems
        failures = problems + failures
        failures += await backend.unused()

        let entries = await log.entries
        let last = entries.last.map { ScenarioRunner.describe($0, redactor) }
        return ScenarioReport(name: scenario.name, file: scenario.file, tags: scenario.tags,
                              status: failures.isEmpty ? .passed : .failed, failures: failures.map(redactor.redact),
                              paths: paths, lastExchange: last, durationSeconds: (ContinuousClock.now - started).seconds,
                              infrastructureFailure: false, skipReason: nil)
    }

    func registerSecretInputs(_ scenario: Scenario, _ redactor: Redactor) {
        var secretNames = Set<String>()
        for flow in specs.flows.values { for input in flow.inputs where input.secret { secretNames.insert(input.name) } }
        var all = scenario.inputs
        for step in scenario.steps { if case .run(let r) = step { all.merge(r.inputs) { $0 + $1 } } }
        for (name, values) in all where secretNames.contains(name) { values.forEach(redactor.register) }
        // Tokens the scripted backend hands out and tokens the scenario expects in the store are credentials too,
        // even when a failure stops the flow before they reach the store.
        for exchange in scenario.exchanges {
            if case .reply(_, _, let body) = exchange.response, let json = JSONValue.parse(Data(body)) { registerCredentials(in: json, redactor) }
        }
        var expectations = scenario.expect.map { [$0] } ?? []
        for step in scenario.steps { if case .run(let r) = step, let e = r.expect { expectations.append(e) } }
        for e in expectations { for (key, value) in e.store { redactor.registerStored(key.key ?? "", value) } }
        for namespace in scenario.store.values { for (key, value) in namespace { redactor.registerStored(key, value) } }
    }

    func registerCredentials(in json: JSONValue, _ redactor: Redactor) {
        switch json {
        case .object(let fields):
            for (key, value) in fields {
                if case .string = value { redactor.registerStored(key, value) } else { registerCredentials(in: value, redactor) }
            }
        case .array(let items): items.forEach { registerCredentials(in: $0, redactor) }
        default: break
        }
    }

    static func describe(_ entry: ExchangeLog.Entry, _ redactor: Redactor) -> String {
        var text = "\(entry.request.method) \(entry.request.pathWithQuery)"
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

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
