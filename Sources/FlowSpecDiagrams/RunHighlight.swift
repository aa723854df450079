import FlowSpecLanguage

/// What a diagram marks on top of a flow: the states runs entered (with the step numbers at which they did), how
/// often each edge was taken (a re-asked code takes one twice), and, for a single run, where it ended or stopped.
/// One type for every format: Mermaid and DOT draw the states and counts; SVG also numbers the steps and marks the
/// end. A value the renderers take, so a highlighted diagram is still a pure function of (flow, highlight).
package struct RunHighlight: Sendable, Equatable {
    /// 1-based step numbers, within its run, at which each visited state was entered.
    package var steps: [String: [Int]]
    /// How many times each taken edge was taken; edges never taken are absent.
    package var edgeCounts: [EdgeKey: Int]
    /// One run only: the state where it failed without reaching an end state (unhandled response, error).
    package var failedAt: String?
    /// One run only: the end state it reached, and whether that end is a success.
    package var ended: Ending?

    /// Made only here, by the memberwise initialiser.
    package struct Ending: Sendable, Equatable {
        package var state: String
        package var success: Bool
    }

    /// Nothing highlighted: the plain flow.
    package init() {
        steps = [:]
        edgeCounts = [:]
    }

    package static let none = RunHighlight()

    /// One path given by names: every state entered, in order, with the edge taken out of it (nil where it
    /// stopped); `endStates` gives the flow's end states and their success; a failed path that stopped outside an end
    /// state gets `failedAt`.
    package init(visits: [(state: String, edge: Int?)], endStates: [String: Bool], failed: Bool) {
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

    /// Runs of one flow, resolved (each visit is a state of the run's compiled flow). One run also marks where it
    /// ended or stopped; several are merged: their steps numbered run by run, their edge counts added.
    package init(runs: [FlowRunTrace]) {
        self.init()
        for run in runs {
            for (offset, visit) in run.visits.enumerated() {
                let name = run.state(visit).name
                steps[name, default: []].append(offset + 1)
                if let edge = visit.edge { edgeCounts[EdgeKey(state: name, index: edge), default: 0] += 1 }
            }
        }
        guard runs.count == 1, let run = runs.first, let last = run.visits.last else { return }
        let state = run.state(last)
        if let ending = state.ending {
            ended = Ending(state: state.name, success: ending.success)
        } else if !run.success {
            failedAt = state.name
        }
    }

    package var visitedStates: Set<String> { Set(steps.keys) }
    package func isVisited(_ state: String) -> Bool { steps[state] != nil }
    package var isEmpty: Bool { steps.isEmpty && edgeCounts.isEmpty }

    /// Times `edge` was taken; 0 when never.
    package func count(_ edge: EdgeKey) -> Int { edgeCounts[edge] ?? 0 }
    package func count(_ edge: Edge) -> Int { count(EdgeKey(edge)) }

    /// The start marker's arrow counts as taken when a run reached the start state.
    package func tookStart(of flow: CompiledFlow) -> Bool { isVisited(flow.startName) }
}

extension RunHighlight {
    /// One path through `flow` given by names: end states and their success come from the flow.
    package init(visits: [(state: String, edge: Int?)], in flow: CompiledFlow, failed: Bool) {
        var ends: [String: Bool] = [:]
        for state in flow.endStates { ends[state.name] = state.ending?.success }
        self.init(visits: visits, endStates: ends, failed: failed)
    }
}
