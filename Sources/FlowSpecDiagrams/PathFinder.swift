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
    package static func report(_ graph: FlowGraph) -> PathReport {
        let prefix = shortestPrefixes(graph)
        let toEnd = distancesToEnd(graph)
        var paths: [FlowPath] = []
        var covered = Set<Edge>()

        for end in graph.endStates {
            guard let edges = prefix[end] else { continue }
            paths.append(FlowPath(purpose: .end(end), edges: edges, states: states(graph.start, edges)))
            covered.formUnion(edges)
        }
        var deadEnds: [Edge] = []
        for edge in graph.edges where prefix[edge.state] != nil && !covered.contains(edge) {
            guard let suffix = suffix(from: edge.target, graph, toEnd) else {
                deadEnds.append(edge)
                continue
            }
            let edges = prefix[edge.state]! + [edge] + suffix
            paths.append(FlowPath(purpose: .edge(edge), edges: edges, states: states(graph.start, edges)))
            covered.formUnion(edges)
        }
        return PathReport(
            flow: graph.flow.name, paths: paths,
            unreachableStates: graph.states.filter { prefix[$0] == nil }, deadEndEdges: deadEnds)
    }

    /// The shortest path (edges) from the start to every reachable state.
    package static func shortestPrefixes(_ graph: FlowGraph) -> [String: [Edge]] {
        guard graph.flow.states[graph.start] != nil else { return [:] }
        var prefix: [String: [Edge]] = [graph.start: []]
        var queue = [graph.start]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for edge in graph.outgoing[state] ?? []
            where prefix[edge.target] == nil && graph.flow.states[edge.target] != nil {
                prefix[edge.target] = prefix[state]! + [edge]
                queue.append(edge.target)
            }
        }
        return prefix
    }

    /// The shortest path from the start to `target`, or nil when it cannot be reached.
    package static func shortestPath(_ graph: FlowGraph, to target: String) -> FlowPath? {
        guard let edges = shortestPrefixes(graph)[target] else { return nil }
        return FlowPath(purpose: .end(target), edges: edges, states: states(graph.start, edges))
    }

    /// Edge count from each state to its nearest end state (states missing from the map reach none).
    package static func distancesToEnd(_ graph: FlowGraph) -> [String: Int] {
        var incoming: [String: [String]] = [:]
        for edge in graph.edges { incoming[edge.target, default: []].append(edge.state) }
        var distance: [String: Int] = [:]
        var queue: [String] = []
        for end in graph.endStates {
            distance[end] = 0
            queue.append(end)
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for source in incoming[state] ?? [] where distance[source] == nil {
                distance[source] = distance[state]! + 1
                queue.append(source)
            }
        }
        return distance
    }

    /// From `state` to its nearest end state, taking at each step the first edge (interpreter order) that gets closer.
    static func suffix(from state: String, _ graph: FlowGraph, _ toEnd: [String: Int]) -> [Edge]? {
        guard var remaining = toEnd[state] else { return nil }
        var current = state
        var edges: [Edge] = []
        while remaining > 0 {
            guard let next = graph.outgoing[current]?.first(where: { toEnd[$0.target] == remaining - 1 }) else {
                return nil
            }
            edges.append(next)
            current = next.target
            remaining -= 1
        }
        return edges
    }

    static func states(_ start: String, _ edges: [Edge]) -> [String] {
        [start] + edges.map(\.target)
    }
}
