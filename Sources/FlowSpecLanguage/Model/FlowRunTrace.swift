/// What one flow run did, resolved: the compiled flow it walked, and each state it entered as that flow's state
/// index, with the edge it took out (by the one numbering of `Edge`) and the guards found false there. Reports,
/// coverage, `graph --trace` and the HTML page read states and edges from `flow` through these indices; none looks
/// a state up by name. The JSON report writes names; reading it back (`TraceFile`) resolves them against the
/// loaded flows and gives this same type.
public struct FlowRunTrace: Sendable, Equatable {
    public struct Visit: Sendable, Equatable {
        /// The state's index in the run's `flow.states`.
        public var state: Int
        /// The edge taken out of the state (see `Edge`), or nil when the run ended or failed there.
        public var edge: Int?
        /// Guarded transitions evaluated false here before one matched (or none did), by transition index.
        public var falseGuards: [Int]

        public init(state: Int, edge: Int? = nil, falseGuards: [Int] = []) {
            self.state = state
            self.edge = edge
            self.falseGuards = falseGuards
        }
    }

    /// Unique within one scenario; runs are numbered in the order they started.
    public var id: Int
    /// The flow the run walked: every visit's state and edge index into it.
    public let flow: CompiledFlow
    /// The run that started this one (`call`, or a session refresh), nil for a scenario step's own run.
    public var parent: Int?
    public var visits: [Visit]
    /// `ok`, `unhandled`, `error`…; nil while running.
    public var outcome: String?
    public var success: Bool

    public init(
        id: Int, flow: CompiledFlow, parent: Int?, visits: [Visit] = [], outcome: String? = nil, success: Bool = false
    ) {
        self.id = id
        self.flow = flow
        self.parent = parent
        self.visits = visits
        self.outcome = outcome
        self.success = success
    }

    public var flowName: String { flow.name }

    /// The state a visit entered.
    public func state(_ visit: Visit) -> State { flow.states[visit.state] }

    /// The edge a visit took out of its state; nil where the run stopped.
    public func edge(_ visit: Visit) -> Edge? { visit.edge.flatMap { flow.edge(of: visit.state, number: $0) } }

    /// State names in the order visited.
    public var path: [String] { visits.map { flow.states[$0.state].name } }

    /// Two traces are equal when they walked the same flow (the same compiled object) the same way.
    public static func == (a: FlowRunTrace, b: FlowRunTrace) -> Bool {
        a.id == b.id && a.flow === b.flow && a.parent == b.parent && a.visits == b.visits && a.outcome == b.outcome
            && a.success == b.success
    }
}
