import FlowSpecLanguage

/// A flow as a directed graph of its states and numbered edges (see `Edge`): what diagrams, path
/// enumeration and coverage walk. Built once per flow; states keep file order so every output is stable.
package struct FlowGraph: Sendable {
    package let flow: Flow
    /// State names in file order.
    package let states: [String]
    /// Edges out of each state, in interpreter order.
    package let outgoing: [String: [Edge]]

    package init(_ flow: Flow) {
        self.flow = flow
        states = flow.stateOrder.filter { flow.states[$0] != nil }
        var outgoing: [String: [Edge]] = [:]
        for state in flow.orderedStates { outgoing[state.name] = state.edges }
        self.outgoing = outgoing
    }

    package var start: String { flow.start.name }

    /// Every edge, states in file order.
    package var edges: [Edge] { states.flatMap { outgoing[$0] ?? [] } }

    /// End states in file order.
    package var endStates: [String] { states.filter { flow.states[$0]?.ending != nil } }
}
