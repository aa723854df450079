import FlowSpecLanguage
import Foundation
import Synchronization

/// Every request sent and what came back, in order, for expectations and failure reports.
public final class ExchangeLog: Sendable {
    public struct Entry: Sendable {
        public var flow: String
        public var state: String
        public var request: HTTPRequest
        public var response: HTTPResponse?
        public var failure: TransportError?
        /// The trace id of the flow run that sent it, when a trace is recorded.
        public var run: Int?
        /// Which of that run's visits (0-based, as in its trace and path) sent it.
        public var visit: Int?
        /// Wall time from sending to the whole response (or the failure).
        public var durationSeconds: Double

        public init(
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

    public init() {}

    public var entries: [Entry] { recorded.withLock { $0 } }

    /// Requests that got no response at all, from `index` on: what makes a failed live run an
    /// infrastructure problem rather than a broken promise, even when the flow handled it (`unreachable:`).
    public func transportFailures(from index: Int = 0) -> [TransportError] {
        recorded.withLock { $0.dropFirst(index).compactMap(\.failure).filter { $0.kind != .notSent } }
    }

    public func record(_ entry: Entry) { recorded.withLock { $0.append(entry) } }
}
