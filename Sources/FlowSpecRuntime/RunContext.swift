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

    public init(specs: SpecSet, adapter: any HTTPAdapter, clock: any FlowClock, store: TokenStore, inputs: any InputSource,
                vars: [String: JSONValue], redactor: Redactor, broker: SessionBroker = SessionBroker(), log: ExchangeLog = ExchangeLog()) {
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
