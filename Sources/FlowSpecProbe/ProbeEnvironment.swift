import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

/// What every probe of a run shares: the specs, the live backend, the run variables and the masking.
package struct ProbeEnvironment: Sendable {
    /// Makes every probe's run context as `run` and `exec` make theirs.
    let contexts: RunContextFactory
    package var specs: SpecSet { contexts.specs }
    /// The backend, as every probe request reaches it (for a live one: registering the credentials it hands out).
    package var adapter: any HTTPAdapter
    package var vars: [String: JSONValue] { contexts.vars }
    package var redactor: Redactor
    /// A real server (requests need a base URL), or a test's scripted one.
    let live: Bool
    package var clock: any FlowClock
    /// The longest a probe may wait (expiry, a reuse interval), seconds.
    package var allowWait: Double
    package var commandTimeout: Double
    /// Told before a probe waits (a login interval, an expiry, a reuse interval), so a long run is not a silent one.
    package var onWait: @Sendable (String) -> Void = { _ in }

    /// Probes a live backend: one redactor for the whole suite, already masking the credential run variables.
    package init(
        contexts: RunContextFactory, live: any HTTPAdapter, clock: any FlowClock, allowWait: Double,
        commandTimeout: Double
    ) {
        let redactor = contexts.redactor()
        self.init(
            contexts: contexts, adapter: RunContextFactory.harvesting(live, redactor), live: true, redactor: redactor,
            clock: clock,
            allowWait: allowWait, commandTimeout: commandTimeout)
    }

    /// `adapter` is a test's scripted backend, used as given (matched on method and path, no base URL needed).
    package init(
        specs: SpecSet, adapter: any HTTPAdapter, vars: [String: JSONValue], redactor: Redactor, clock: any FlowClock,
        allowWait: Double, commandTimeout: Double
    ) {
        self.init(
            contexts: RunContextFactory(specs: specs, vars: vars, origin: .probe), adapter: adapter, live: false,
            redactor: redactor,
            clock: clock, allowWait: allowWait, commandTimeout: commandTimeout)
    }

    private init(
        contexts: RunContextFactory, adapter: any HTTPAdapter, live: Bool, redactor: Redactor, clock: any FlowClock,
        allowWait: Double, commandTimeout: Double
    ) {
        self.contexts = contexts
        self.adapter = adapter
        self.live = live
        self.redactor = redactor
        self.clock = clock
        self.allowWait = allowWait
        self.commandTimeout = commandTimeout
    }

    /// A run context of its own: a fresh store (probes never touch a user's session), the given inputs and adapter.
    func context(
        store: TokenStore, inputs: any InputSource, adapter: (any HTTPAdapter)? = nil, log: ExchangeLog = ExchangeLog(),
        specs: SpecSet? = nil
    ) -> RunContext {
        let target = adapter ?? self.adapter
        return contexts.context(
            backend: live ? .harvested(target, waitLimit: allowWait) : .scripted(target, waitLimit: allowWait),
            clock: clock, store: store, inputs: inputs,
            redactor: redactor, log: log, specs: specs)
    }

    /// nil when the option is not given; `.failure` with the reason when it is but cannot be read.
    func requiredSeconds(_ template: Template?) -> Result<Double, ProbeSetupError>? {
        guard let template else { return nil }
        if let seconds = seconds(template) { return .success(seconds) }
        let names = template.expressions.flatMap { $0.varsReads.map(\.0) }
        return .failure(
            ProbeSetupError(
                message:
                    "`\(template.source)` has no value: set the run variable\(names.count == 1 ? "" : "s") \(names.joined(separator: ", "))"
            ))
    }

    /// Evaluates a template option (`reuse_interval: "${vars.supabase_refresh_reuse_interval}"`) to seconds.
    func seconds(_ template: Template?) -> Double? {
        guard let template else { return nil }
        var env = Environment()
        env.vars = vars
        guard let text = try? Evaluator.render(template, env) else { return nil }
        return Durations.parse(text) ?? Double(text)
    }
}

struct ProbeSetupError: Error, Sendable {
    let message: String
}
