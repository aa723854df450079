import FlowSpecLanguage

/// Everything one run shares: the loaded specs and the seams (adapter, clock, store, inputs).
/// Sub-flows, refresh flows and parallel copies all run in the same context.
package struct RunContext: Sendable {
    package var specs: SpecSet
    package var adapter: any HTTPAdapter
    package var clock: any FlowClock
    package var store: TokenStore
    package var inputs: any InputSource
    package var vars: [String: JSONValue]
    package var redactor: Redactor
    package var broker: SessionBroker
    package var log: ExchangeLog
    /// Sees every state as a run enters it (flow name, state name): `exec` prints the path as it goes.
    package var onState: (@Sendable (String, String) -> Void)?
    /// Records every run's states, edges and false guards, for coverage and reports; nil records nothing.
    package var trace: TraceRecorder?
    /// The longest `wait` (seconds) a run may really wait; a longer one skips the run with the reason, since
    /// what it waits for cannot be checked in time. nil: no limit (scripted runs, whose clock is virtual).
    package var waitLimit: Double?
    /// Who started the run, so a missing input or variable is explained in terms the user can act on.
    package var origin: RunOrigin = .scenario
    /// Whether requests need an absolute base URL: a live backend does; scripted exchanges match on method and
    /// path only, so a scripted run of a flow without `defaults.base_url` still plays.
    package var requiresBaseURL = true
    /// Measures each exchange's duration for the log and reports.
    package var stopwatch: any Stopwatch = MonotonicStopwatch()
    /// The run's cookies: what responses set is sent back on later requests (a fresh jar per context).
    package var cookies = CookieJar()

    package init(
        specs: SpecSet, adapter: any HTTPAdapter, clock: any FlowClock, store: TokenStore, inputs: any InputSource,
        vars: [String: JSONValue], redactor: Redactor, broker: SessionBroker = SessionBroker(),
        log: ExchangeLog = ExchangeLog()
    ) {
        self.specs = specs
        self.adapter = adapter
        self.clock = clock
        self.store = store
        self.inputs = inputs
        self.vars = vars
        self.redactor = redactor
        self.broker = broker
        self.log = log
    }
}

/// Where a run's inputs and variables come from.
package enum RunOrigin: Sendable {
    /// A scenario file: its `inputs:` and `vars:`, and the run's `--var`/`--vars-file`.
    case scenario
    /// `flowspec exec`: `--input`, `--input-command`, `--var`, `--vars-file`, `--base-url`.
    case shell
    /// `flowspec probe`: the probe file's `login.inputs:`, and `--var`/`--vars-file`.
    case probe

    package func whereToGive(input name: String) -> String {
        switch self {
        case .scenario: "give it in the scenario's `inputs:` or with --input \(name)=…"
        case .shell:
            "give it with --input \(name)=… or --input-command \(name)='…' (or answer the prompt on a terminal)"
        case .probe: "give it in the probe file's `login: { inputs: … }`"
        }
    }

    package func whereToGive(variable name: String) -> String {
        switch self {
        case .scenario: "give it with --var \(name)=…, in a --vars-file, or in the scenario's `vars:`"
        case .shell: "give it with --var \(name)=… or in a --vars-file (URL variables also with --base-url)"
        case .probe: "give it with --var \(name)=… or in a --vars-file (the live suite's variables, docs/live.md)"
        }
    }
}
