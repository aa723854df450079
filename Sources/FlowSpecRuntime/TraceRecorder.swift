import FlowSpecLanguage
import Synchronization

/// Collects the traces of every flow run in one scenario (sub-flows, refresh flows and parallel copies
/// included). Synchronous and lock-protected so recording costs a lock per state, not an actor hop.
package final class TraceRecorder: Sendable {
    private let runs = Mutex<[FlowRunTrace]>([])

    package init() {}

    /// Starts a run's trace and returns its id.
    func begin(flow: CompiledFlow, parent: Int?) -> Int {
        runs.withLock { runs in
            runs.append(FlowRunTrace(id: runs.count, flow: flow, parent: parent))
            return runs.count - 1
        }
    }

    /// `state`: the state's index in the run's compiled flow.
    func entered(_ run: Int, _ state: Int) {
        runs.withLock { $0[run].visits.append(.init(state: state)) }
    }

    func guardFailed(_ run: Int, transition: Int) {
        runs.withLock { runs in
            guard !runs[run].visits.isEmpty else { return }
            runs[run].visits[runs[run].visits.count - 1].falseGuards.append(transition)
        }
    }

    func took(_ run: Int, edge: Int) {
        runs.withLock { runs in
            guard !runs[run].visits.isEmpty else { return }
            runs[run].visits[runs[run].visits.count - 1].edge = edge
        }
    }

    func ended(_ run: Int, outcome: String, success: Bool) {
        runs.withLock {
            $0[run].outcome = outcome
            $0[run].success = success
        }
    }

    /// Every run so far, in start order.
    package var traces: [FlowRunTrace] { runs.withLock { $0 } }
}
