import FlowSpecLanguage
import Foundation
import Synchronization

/// Every request sent and what came back, in order, for expectations and failure reports.
package final class ExchangeLog: Sendable {
    package struct Entry: Sendable {
        package var flow: String
        package var state: String
        package var request: HTTPRequest
        package var response: HTTPResponse?
        package var failure: TransportError?
        /// The trace id of the flow run that sent it, when a trace is recorded.
        package var run: Int?
        /// Which of that run's visits (0-based, as in its trace and path) sent it.
        package var visit: Int?
        /// Wall time from sending to the whole response (or the failure).
        package var durationSeconds: Double

        package init(
            flow: String, state: String, request: HTTPRequest, response: HTTPResponse?, failure: TransportError?,
            run: Int? = nil, visit: Int? = nil, durationSeconds: Double = 0
        ) {
            self.flow = flow
            self.state = state
            self.request = request
            self.response = response
            self.failure = failure
            self.run = run
            self.visit = visit
            self.durationSeconds = durationSeconds
        }
    }

    // A lock, not an actor: nothing here waits, and every exchange of a run is recorded (an actor hop each time).
    private let recorded = Mutex<[Entry]>([])

    package init() {}

    package var entries: [Entry] { recorded.withLock { $0 } }

    /// Requests that got no response at all, from `index` on: what makes a failed live run an
    /// infrastructure problem rather than a broken promise, even when the flow handled it (`unreachable:`).
    package func transportFailures(from index: Int = 0) -> [TransportError] {
        recorded.withLock { $0.dropFirst(index).compactMap(\.failure).filter { $0.kind != .notSent } }
    }

    package func record(_ entry: Entry) { recorded.withLock { $0.append(entry) } }
}
