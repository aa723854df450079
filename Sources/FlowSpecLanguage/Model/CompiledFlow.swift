/// A checked flow made ready to run, once: states by index in file order, every edge's target resolved to an index
/// by the one numbering of `State.edges`, inputs by name. The interpreter walks indices; it never looks a state up
/// by name or numbers an edge itself, so a trace's edge is the diagram's by construction.
/// A class: it never changes once made, and every run and sub-run holds it (as a struct, each was a copy of its
/// arrays' references, retained and released per run).
package final class CompiledFlow: Sendable {
    package let flow: Flow
    /// In file order.
    package let states: [State]
    /// `targets[state][edge]`: the index of the state edge number `edge` of `states[state]` leads to; nil for a
    /// target that does not exist (the check has reported it; running there ends the run in error).
    package let targets: [[Int?]]
    /// `edges[state]`: the ways out of `states[state]`, made once, at their numbers (see `Edge`: a state's edge
    /// numbers are the positions in its `edges`).
    package let edges: [[Edge]]
    /// The start state's index; nil when it does not exist.
    package let start: Int?
    /// `callees[state]`: for a call state, the index of the flow it calls among the program's flows
    /// (`SpecSet.compiledFlows`); nil for another kind of state, an unknown flow, or a flow compiled on its own.
    package let callees: [Int?]
    /// `sessions[state]`: for a request that goes through a session (its own `session:` or the flow's, unless it
    /// opts out), the index of that session among the program's sessions (`SpecSet.linkedSessions`).
    package let sessions: [Int?]
    private let indexByName: [String: Int]
    private let inputsByName: [String: InputDecl]

    /// Where the program's flows and sessions are, by name, so that calls and sessions are resolved once here.
    package struct Links: Sendable {
        package var flows: [String: Int]
        package var sessions: [String: Int]

        package init(flows: [String: Int], sessions: [String: Int]) {
            self.flows = flows
            self.sessions = sessions
        }

        /// A flow compiled on its own (a diagram of one file): its calls and sessions lead nowhere.
        package static let none = Links(flows: [:], sessions: [:])
    }

    package init(_ flow: Flow, links: Links = .none) {
        self.flow = flow
        let states = flow.orderedStates
        let indexByName = Dictionary(
            states.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        self.states = states
        self.indexByName = indexByName
        let edges = states.map(\.edges)
        self.edges = edges
        targets = edges.map { edges in
            // Edge numbers are defined by `Edge`; index by them, not by array position.
            var row = [Int?](repeating: nil, count: (edges.map(\.index).max() ?? -1) + 1)
            for edge in edges { row[edge.index] = indexByName[edge.target] }
            return row
        }
        start = indexByName[flow.start.name]
        callees = states.map { state in
            guard case .call(let c) = state.kind else { return nil }
            return links.flows[c.flow.name]
        }
        sessions = states.map { state in
            guard case .request(let r) = state.kind, !r.sessionOptOut, let name = (r.session ?? flow.session)?.name
            else { return nil }
            return links.sessions[name]
        }
        inputsByName = Dictionary(flow.inputs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    package var name: String { flow.name }

    package func index(of state: String) -> Int? { indexByName[state] }

    package func input(named name: String) -> InputDecl? { inputsByName[name] }

    /// Edge number `number` of state `state`; nil when the state has no such edge.
    package func edge(of state: Int, number: Int) -> Edge? {
        let row = edges[state]
        return row.indices.contains(number) && row[number].index == number
            ? row[number] : row.first { $0.index == number }
    }

    /// Where edge `edge` of state `state` leads: nil when its target does not exist.
    package func target(of state: Int, edge: Int) -> Int? {
        let row = targets[state]
        return edge < row.count ? row[edge] : nil
    }
}
