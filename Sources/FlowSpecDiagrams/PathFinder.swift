import FlowSpecLanguage

/// One way through a flow: the edges taken from the start state, in order.
package struct FlowPath: Sendable, Equatable {
    /// Why the path was listed.
    package enum Purpose: Sendable, Equatable {
        /// The shortest path to this end state.
        case end(String)
        /// The shortest path through this edge (not on any earlier path), then on to the nearest end state.
        case edge(Edge)
    }

    package var purpose: Purpose
    package var edges: [Edge]
    /// The start state, then each edge's target.
    package var states: [String]

    /// The last state: always an end state for listed paths.
    package var last: String { states.last! }
}

/// Everything `flowspec paths` lists for one flow.
package struct PathReport: Sendable {
    package var flow: String
    package var paths: [FlowPath]
    /// States no edge from the start reaches (file order).
    package var unreachableStates: [String]
    /// Reachable edges after which no end state can be reached (a loop with no way out).
    package var deadEndEdges: [Edge]
}

/// Shortest paths through a flow's graph. Pure and deterministic: breadth-first by edge count, ties broken by
/// file order of states and interpreter order of edges, so the same flow always gives the same list.
///
/// Loop bound: a prefix (start → edge's state) and a suffix (edge's target → end) are each shortest, hence
/// simple paths that never repeat an edge; joined around one edge they can share edges, so any edge appears
/// at most twice in a listed path — one trip around a loop (wrong code → ask again), never more.
package enum PathFinder {
    package static func report(_ flow: CompiledFlow) -> PathReport {
        let prefix = shortestPrefixes(flow)
        let toEnd = distancesToEnd(flow)
        var paths: [FlowPath] = []
        var covered = Set<Edge>()

        for end in flow.states.indices where flow.states[end].ending != nil {
            guard let edges = prefix[end] else { continue }
            let name = flow.states[end].name
            paths.append(FlowPath(purpose: .end(name), edges: edges, states: states(flow.startName, edges)))
            covered.formUnion(edges)
        }
        var deadEnds: [Edge] = []
        for (state, out) in flow.edges.enumerated() where prefix[state] != nil {
            for edge in out where !covered.contains(edge) {
                guard let suffix = suffix(from: flow.target(of: state, edge: edge.index), flow, toEnd) else {
                    deadEnds.append(edge)
                    continue
                }
                let edges = prefix[state]! + [edge] + suffix
                paths.append(FlowPath(purpose: .edge(edge), edges: edges, states: states(flow.startName, edges)))
                covered.formUnion(edges)
            }
        }
        return PathReport(
            flow: flow.name, paths: paths,
            unreachableStates: flow.states.indices.filter { prefix[$0] == nil }.map { flow.states[$0].name },
            deadEndEdges: deadEnds)
    }

    /// The shortest path (edges) from the start to every reachable state, by state index; nil where unreachable.
    static func shortestPrefixes(_ flow: CompiledFlow) -> [[Edge]?] {
        var prefix = [[Edge]?](repeating: nil, count: flow.states.count)
        guard let start = flow.start else { return prefix }
        prefix[start] = []
        var queue = [start]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for edge in flow.edges[state] {
                guard let target = flow.target(of: state, edge: edge.index), prefix[target] == nil else { continue }
                prefix[target] = prefix[state]! + [edge]
                queue.append(target)
            }
        }
        return prefix
    }

    /// The shortest path from the start to `target`, or nil when it cannot be reached.
    package static func shortestPath(_ flow: CompiledFlow, to target: String) -> FlowPath? {
        guard let index = flow.index(of: target), let edges = shortestPrefixes(flow)[index] else { return nil }
        return FlowPath(purpose: .end(target), edges: edges, states: states(flow.startName, edges))
    }

    /// Edge count from each state (by index) to its nearest end state; nil for a state that reaches none.
    static func distancesToEnd(_ flow: CompiledFlow) -> [Int?] {
        var incoming = [[Int]](repeating: [], count: flow.states.count)
        for state in flow.states.indices {
            for edge in flow.edges[state] {
                if let target = flow.target(of: state, edge: edge.index) { incoming[target].append(state) }
            }
        }
        var distance = [Int?](repeating: nil, count: flow.states.count)
        var queue: [Int] = []
        for end in flow.states.indices where flow.states[end].ending != nil {
            distance[end] = 0
            queue.append(end)
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for source in incoming[state] where distance[source] == nil {
                distance[source] = distance[state]! + 1
                queue.append(source)
            }
        }
        return distance
    }

    /// From `state` to its nearest end state, taking at each step the first edge (interpreter order) that gets closer;
    /// nil when no end state can be reached (or `state` does not exist).
    static func suffix(from state: Int?, _ flow: CompiledFlow, _ toEnd: [Int?]) -> [Edge]? {
        guard let state, var remaining = toEnd[state] else { return nil }
        var current = state
        var edges: [Edge] = []
        while remaining > 0 {
            let closer = flow.edges[current].lazy.compactMap { edge -> (Edge, Int)? in
                guard let target = flow.target(of: current, edge: edge.index), toEnd[target] == remaining - 1 else {
                    return nil
                }
                return (edge, target)
            }.first
            guard let (next, target) = closer else { return nil }
            edges.append(next)
            current = target
            remaining -= 1
        }
        return edges
    }

    static func states(_ start: String, _ edges: [Edge]) -> [String] {
        [start] + edges.map(\.target)
    }
}
