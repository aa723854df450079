/// One way out of a state, numbered as the interpreter numbers it: a state's transitions in file order, then
/// `unreachable:` (request states); `goto:` then `invalid:` (input states); `goto:` (wait states).
/// Coverage, diagrams, traces and generated paths all name an edge by (state, index), so they agree.
package struct Edge: Sendable, Hashable {
    package enum Kind: String, Sendable {
        /// A transition with a `when:` guard.
        case guarded
        /// `else: true`, or a transition with no guard.
        case otherwise
        /// A request state's `unreachable:` — no response arrived.
        case unreachable
        /// An input state's `invalid:` — the answer failed validation.
        case invalidInput
        /// The single way on from an input or wait state.
        case next
    }

    package var state: String
    package var index: Int
    package var kind: Kind
    package var target: String
    /// Where the edge is written: the transition, or the `goto`/`unreachable`/`invalid` reference.
    package var location: SourceLocation
    /// The guard's source text for guarded edges.
    package var guardText: String?

    /// What a diagram writes on the arrow.
    package var label: String {
        switch kind {
        case .guarded: guardText ?? ""
        case .otherwise: "else"
        case .unreachable: "unreachable"
        case .invalidInput: "invalid"
        case .next: ""
        }
    }

    package static func == (a: Edge, b: Edge) -> Bool { a.state == b.state && a.index == b.index }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(state)
        hasher.combine(index)
    }
}

/// An edge's name alone, (state, index): the key traces, coverage and diagram highlights count by.
package struct EdgeKey: Sendable, Hashable, Comparable, Codable {
    package var state: String
    package var index: Int

    package init(state: String, index: Int) {
        self.state = state
        self.index = index
    }

    package init(_ edge: Edge) { self.init(state: edge.state, index: edge.index) }

    package static func < (a: EdgeKey, b: EdgeKey) -> Bool { (a.state, a.index) < (b.state, b.index) }
}

extension Edge {
    /// The numbers of the edges that are not transitions, defined once: `State.edges` and the interpreter both
    /// number by these, so a trace's edge is always the diagram's.
    package static let nextIndex = 0
    package static let invalidInputIndex = 1
    /// A request state's `unreachable:` comes after its transitions.
    package static func unreachableIndex(transitions: Int) -> Int { transitions }
}

extension State {
    /// Every way out of this state, in interpreter order (see `Edge`).
    package var edges: [Edge] {
        func edge(_ i: Int, _ t: Transition) -> Edge {
            Edge(
                state: name, index: i, kind: t.guardExpr == nil ? .otherwise : .guarded, target: t.goto.name,
                location: t.location, guardText: t.guardExpr?.text)
        }
        switch kind {
        case .request(let r):
            var out = r.transitions.enumerated().map { edge($0.offset, $0.element) }
            if let u = r.unreachable {
                out.append(
                    Edge(
                        state: name, index: Edge.unreachableIndex(transitions: r.transitions.count), kind: .unreachable,
                        target: u.name, location: u.location))
            }
            return out
        case .choice(let transitions):
            return transitions.enumerated().map { edge($0.offset, $0.element) }
        case .call(let c):
            return c.transitions.enumerated().map { edge($0.offset, $0.element) }
        case .input(let i):
            var out = [
                Edge(state: name, index: Edge.nextIndex, kind: .next, target: i.goto.name, location: i.goto.location)
            ]
            if let invalid = i.invalid {
                out.append(
                    Edge(
                        state: name, index: Edge.invalidInputIndex, kind: .invalidInput, target: invalid.name,
                        location: invalid.location))
            }
            return out
        case .wait(let w):
            return [
                Edge(state: name, index: Edge.nextIndex, kind: .next, target: w.goto.name, location: w.goto.location)
            ]
        case .end:
            return []
        }
    }

    /// The end state's outcome and success, or nil for other kinds.
    package var ending: (outcome: String, success: Bool)? {
        if case .end(let e) = kind { return (e.outcome, e.success) }
        return nil
    }
}

extension Flow {
    /// Every edge of the flow, states in file order.
    package var edges: [Edge] { orderedStates.flatMap(\.edges) }
}
