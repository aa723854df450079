import FlowSpecLanguage

/// The part of a flow some runs walked: the states they visited and how often they took each edge.
/// A value the diagram renderers take, so a highlighted diagram is still a pure function of (graph, highlight).
public struct PathHighlight: Sendable, Equatable {
    public var visitedStates: Set<String>
    /// How many times each taken edge was taken; edges never taken are absent.
    public var edgeCounts: [EdgeKey: Int]
    /// Visits the current flow cannot place — a state it no longer has, or an edge index past its state's
    /// edges — described for a warning: the report was written for another version of the flow.
    public var unmatched: [String]

    public init(visitedStates: Set<String> = [], edgeCounts: [EdgeKey: Int] = [:], unmatched: [String] = []) {
        self.visitedStates = visitedStates
        self.edgeCounts = edgeCounts
        self.unmatched = unmatched
    }

    /// Nothing highlighted: the plain diagram.
    public static let none = PathHighlight()

    /// Merges runs of this graph's flow (a JSON report's, read by `TraceFile.runs(of:scenario:)` in FlowSpecReports).
    public init(graph: FlowGraph, runs: [FlowRunTrace]) {
        self.init()
        var unmatched = Set<String>()
        for run in runs {
            for visit in run.visits {
                guard let edges = graph.outgoing[visit.state] else {
                    unmatched.insert("state `\(visit.state)` is not in the flow")
                    continue
                }
                visitedStates.insert(visit.state)
                guard let index = visit.edge else { continue }
                guard edges.indices.contains(index) else {
                    unmatched.insert("state `\(visit.state)` has no edge \(index) (it has \(edges.count))")
                    continue
                }
                edgeCounts[EdgeKey(state: visit.state, index: index), default: 0] += 1
            }
        }
        self.unmatched = unmatched.sorted()
    }

    public var isEmpty: Bool { visitedStates.isEmpty && edgeCounts.isEmpty }

    /// Times `edge` was taken; 0 when never.
    public func count(_ edge: Edge) -> Int { edgeCounts[EdgeKey(edge)] ?? 0 }

    /// The start marker's arrow counts as taken when the run reached the start state.
    public func tookStart(of graph: FlowGraph) -> Bool { visitedStates.contains(graph.start) }
}
