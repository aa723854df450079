import FlowSpecLanguage

/// The one way `run`, `exec` and `probe` make a run's context, so every run masks the same things the same
/// way: a redactor that already knows the run variables holding credentials, a live backend wrapped so each
/// credential it hands out is masked on arrival, who started the run (for "give it with …" hints), and the
/// longest a live run may really wait.
package struct RunContextFactory: Sendable {
    package let specs: SpecSet
    /// The run variables (`--var`, `--vars-file`, `--base-url`).
    package let vars: [String: JSONValue]
    package let origin: RunOrigin
    /// What the flows use as secrets (run variables, inputs), found once from the specs.
    package let secretUses: SecretUses
    /// The values of the run variables that hold credentials — named like one (`staff_password`) or used as one by
    /// a flow (`SecretUses`) — found once for every run.
    let variableSecrets: Set<String>

    package init(specs: SpecSet, vars: [String: JSONValue], origin: RunOrigin, secretUses: SecretUses? = nil) {
        self.specs = specs
        self.vars = vars
        self.origin = origin
        let uses = secretUses ?? SecretUses(specs: specs)
        self.secretUses = uses
        variableSecrets = Redactor.secrets { $0.registerVariables(vars, usedAsSecrets: uses.variables) }
    }

    /// Shared by the redactors made here: runs that start from the same secrets share their search.
    let prepared = PreparedSecrets()

    /// A fresh redactor for one run (or one probe suite), already masking the credential run variables.
    package func redactor() -> Redactor {
        let redactor = Redactor(prepared: prepared)
        redactor.register(known: variableSecrets)
        return redactor
    }

    /// Where a run's requests go.
    package enum Backend: Sendable {
        /// A real server: credentials it hands out are registered as they arrive, requests need a base URL, and a
        /// `wait` longer than `waitLimit` seconds skips the run instead of sleeping.
        case live(any HTTPAdapter, waitLimit: Double)
        /// A real server already wrapped by `harvesting` (the probe's, shared with requests it sends itself).
        case harvested(any HTTPAdapter, waitLimit: Double)
        /// Scripted exchanges (or a test's backend), all known before the run: used as it is, matched on method and
        /// path, on a virtual clock unless `waitLimit` says otherwise.
        case scripted(any HTTPAdapter, waitLimit: Double? = nil)
    }

    /// Wraps a live backend as `context(…)` does, for requests sent outside a run (the probe's replays).
    package static func harvesting(_ live: any HTTPAdapter, _ redactor: Redactor) -> any HTTPAdapter {
        CredentialHarvestingAdapter(live, redactor: redactor)
    }

    /// `vars` replaces the factory's run variables for this run (a scenario adds its own `vars:`).
    package func context(
        backend: Backend, clock: any FlowClock, store: TokenStore, inputs: any InputSource, redactor: Redactor,
        vars: [String: JSONValue]? = nil, log: ExchangeLog = ExchangeLog(), broker: SessionBroker = SessionBroker(),
        specs: SpecSet? = nil
    ) -> RunContext {
        let adapter: any HTTPAdapter, waitLimit: Double?, live: Bool
        switch backend {
        case .live(let given, let limit): (adapter, waitLimit, live) = (Self.harvesting(given, redactor), limit, true)
        case .harvested(let given, let limit): (adapter, waitLimit, live) = (given, limit, true)
        case .scripted(let given, let limit): (adapter, waitLimit, live) = (given, limit, false)
        }
        var context = RunContext(
            specs: specs ?? self.specs, adapter: adapter, clock: clock, store: store, inputs: inputs,
            vars: vars ?? self.vars, redactor: redactor, broker: broker, log: log)
        context.origin = origin
        context.waitLimit = waitLimit
        context.requiresBaseURL = live
        return context
    }
}
