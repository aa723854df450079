import FlowSpecLanguage

/// Everything one run shares: the loaded specs and the seams (adapter, clock, store, inputs).
/// Sub-flows, refresh flows and parallel copies all run in the same context.
public struct RunContext: Sendable {
    public var specs: SpecSet
    public var adapter: any HTTPAdapter
    public var clock: any FlowClock
    public var store: TokenStore
    public var inputs: any InputSource
    public var vars: [String: JSONValue]
    public var redactor: Redactor
    public var broker: SessionBroker
    public var log: ExchangeLog
    /// Sees every state as a run enters it (flow name, state name): `exec` prints the path as it goes.
    public var onState: (@Sendable (String, String) -> Void)?
    /// Records every run's states, edges and false guards, for coverage and reports; nil records nothing.
    public var trace: TraceRecorder?
    /// The longest `wait` (seconds) a run may really wait; a longer one skips the run with the reason, since
    /// what it waits for cannot be checked in time. nil: no limit (scripted runs, whose clock is virtual).
    public var waitLimit: Double?
    /// Who started the run, so a missing input or variable is explained in terms the user can act on.
    public var origin: RunOrigin = .scenario
    /// Whether requests need an absolute base URL: a live backend does; scripted exchanges match on method and
    /// path only, so a scripted run of a flow without `defaults.base_url` still plays.
    public var requiresBaseURL = true
    /// Measures each exchange's duration for the log and reports.
    public var stopwatch: any Stopwatch = MonotonicStopwatch()
    /// The run's cookies: what responses set is sent back on later requests (a fresh jar per context).
    public var cookies = CookieJar()

    public init(
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
public enum RunOrigin: Sendable {
    /// A scenario file: its `inputs:` and `vars:`, and the run's `--var`/`--vars-file`.
    case scenario
    /// `flowspec exec`: `--input`, `--input-command`, `--var`, `--vars-file`, `--base-url`.
    case shell
    /// `flowspec probe`: the probe file's `login.inputs:`, and `--var`/`--vars-file`.
    case probe

    public func whereToGive(input name: String) -> String {
        switch self {
        case .scenario: "give it in the scenario's `inputs:` or with --input \(name)=…"
        case .shell:
            "give it with --input \(name)=… or --input-command \(name)='…' (or answer the prompt on a terminal)"
        case .probe: "give it in the probe file's `login: { inputs: … }`"
        }
    }

    public func whereToGive(variable name: String) -> String {
        switch self {
        case .scenario: "give it with --var \(name)=…, in a --vars-file, or in the scenario's `vars:`"
        case .shell: "give it with --var \(name)=… or in a --vars-file (URL variables also with --base-url)"
        case .probe: "give it with --var \(name)=… or in a --vars-file (the live suite's variables, docs/live.md)"
        }
    }
}
