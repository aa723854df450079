/// What one run of one flow did, state by state: the raw material of coverage, diagrams with the path
/// highlighted, and the JSON report's `runs`.
public struct FlowRunTrace: Sendable, Equatable {
    public struct Visit: Sendable, Equatable {
        public var state: String
        /// The edge taken out of the state (see `Edge`), or nil when the run ended or failed there.
        public var edge: Int?
        /// Guarded transitions evaluated false here before one matched (or none did), by transition index.
        public var falseGuards: [Int]

        public init(state: String, edge: Int? = nil, falseGuards: [Int] = []) {
            self.state = state
            self.edge = edge
            self.falseGuards = falseGuards
        }
    }

    /// Unique within one scenario; runs are numbered in the order they started.
    public var id: Int
    public var flow: String
    /// The run that started this one (`call`, or a session refresh), nil for a scenario step's own run.
    public var parent: Int?
    public var visits: [Visit]
    /// `ok`, `unhandled`, `error`…; nil while running.
    public var outcome: String?
    public var success: Bool

    public init(id: Int, flow: String, parent: Int?, visits: [Visit] = [], outcome: String? = nil, success: Bool = false) {
        self.id = id
        self.flow = flow
        self.parent = parent
        self.visits = visits
        self.outcome = outcome
        self.success = success
    }

    /// State names in the order visited.
    public var path: [String] { visits.map(\.state) }
}
