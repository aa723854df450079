/// What one flow run did, resolved: the compiled flow it walked, and each state it entered as that flow's state
/// index, with the edge it took out (by the one numbering of `Edge`) and the guards found false there. Reports,
/// coverage, `graph --trace` and the HTML page read states and edges from `flow` through these indices; none looks
/// a state up by name. The JSON report writes names; reading it back (`TraceFile`) resolves them against the
/// loaded flows and gives this same type.
package struct FlowRunTrace: Sendable, Equatable {
    package struct Visit: Sendable, Equatable {
        /// The state's index in the run's `flow.states`.
        package var state: Int
        /// The edge taken out of the state (see `Edge`), or nil when the run ended or failed there.
        package var edge: Int?
        /// Guarded transitions evaluated false here before one matched (or none did), by transition index.
        package var falseGuards: [Int]

        package init(state: Int, edge: Int? = nil, falseGuards: [Int] = []) {
            self.state = state
            self.edge = edge
            self.falseGuards = falseGuards
        }
    }

    /// Unique within one scenario; runs are numbered in the order they started.
    package var id: Int
    /// The flow the run walked: every visit's state and edge index into it.
    package let flow: CompiledFlow
    /// The run that started this one (`call`, or a session refresh), nil for a scenario step's own run.
    package var parent: Int?
    package var visits: [Visit]
    /// `ok`, `unhandled`, `error`…; nil while running.
    package var outcome: String?
    package var success: Bool

    package init(
        id: Int, flow: CompiledFlow, parent: Int?, visits: [Visit] = [], outcome: String? = nil, success: Bool = false
    ) {
        self.id = id
        self.flow = flow
        self.parent = parent
        self.visits = visits
        self.outcome = outcome
        self.success = success
    }

    package var flowName: String { flow.name }

    /// The state a visit entered.
    package func state(_ visit: Visit) -> State { flow.states[visit.state] }

    /// The edge a visit took out of its state; nil where the run stopped.
    package func edge(_ visit: Visit) -> Edge? { visit.edge.flatMap { flow.edge(of: visit.state, number: $0) } }

    /// State names in the order visited.
    package var path: [String] { visits.map { flow.states[$0.state].name } }

    /// Two traces are equal when they walked the same flow (the same compiled object) the same way.
    package static func == (a: FlowRunTrace, b: FlowRunTrace) -> Bool {
        a.id == b.id && a.flow === b.flow && a.parent == b.parent && a.visits == b.visits && a.outcome == b.outcome
            && a.success == b.success
    }
}
