import FlowSpecLanguage

/// What diagrams and paths ask of a flow's one graph beyond what `CompiledFlow` stores. A flow that did not pass
/// its check compiles too (`CompiledFlow(flow)`), so `flowspec graph` and `paths` still draw a broken flow.
extension CompiledFlow {
    /// Every edge: states in file order, each state's edges by number. Every diagram draws edges in this order,
    /// so link N of Mermaid's `linkStyle` is edge N−1 here.
    package var allEdges: [Edge] { edges.flatMap { $0 } }

    /// The end states, in file order.
    package var endStates: [State] { states.filter { $0.ending != nil } }

    /// The start state's name, even when no state has it (a broken flow still gets a start arrow).
    package var startName: String { flow.start.name }

    /// The state called `name`; nil for a name no state has (a target the check has reported).
    package func state(named name: String) -> State? { index(of: name).map { states[$0] } }
}
