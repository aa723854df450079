import FlowSpecLanguage

/// What a diagram marks on top of a flow: the path one run took. Built from the run's visits, in order, so
/// the diagram can number the steps, count edges taken more than once (a re-asked code) and mark where a
/// failed run stopped. Plain names and numbers: the graph module knows nothing about traces.
public struct SVGHighlight: Sendable, Equatable {
    /// 1-based step numbers at which each visited state was entered.
    public var steps: [String: [Int]]
    /// How many times each edge was taken.
    public var edgeCounts: [EdgeKey: Int]
    /// The state where a failed run stopped without reaching an end state (unhandled response, error).
    public var failedAt: String?
    /// The end state the run reached, and whether that end is a success.
    public var ended: Ending?

    public struct Ending: Sendable, Equatable {
        public var state: String
        public var success: Bool
        public init(state: String, success: Bool) {
            self.state = state
            self.success = success
        }
    }

    /// Nothing highlighted: the plain flow.
    public init() {
        steps = [:]
        edgeCounts = [:]
    }

    /// - Parameters:
    ///   - visits: every state entered, in order, with the edge taken out of it (nil where the run stopped).
    ///   - endStates: the flow's end states and their success, to colour where the run ended.
    ///   - failed: whether the run failed; a failed run that stopped outside an end state gets `failedAt`.
    public init(visits: [(state: String, edge: Int?)], endStates: [String: Bool], failed: Bool) {
        self.init()
        for (offset, visit) in visits.enumerated() {
            steps[visit.state, default: []].append(offset + 1)
            if let edge = visit.edge { edgeCounts[EdgeKey(state: visit.state, index: edge), default: 0] += 1 }
        }
        guard let last = visits.last else { return }
        if let success = endStates[last.state] {
            ended = Ending(state: last.state, success: success)
        } else if failed {
            failedAt = last.state
        }
    }

    public func isVisited(_ state: String) -> Bool { steps[state] != nil }
    public func count(_ edge: EdgeKey) -> Int { edgeCounts[edge] ?? 0 }
    public var isEmpty: Bool { steps.isEmpty }
}
