import FlowSpecLanguage

/// How one run of a flow ended.
public struct FlowResult: Sendable {
    public enum Ending: Sendable {
        /// Reached an end state.
        case end(outcome: String, success: Bool, reason: String, outputs: [String: JSONValue])
        /// No transition matched a response: backend drift, shown with the response.
        case unhandled(String)
        /// The flow or its inputs are wrong at run time: step budget, missing input, bad value.
        case error(String)
        /// No response arrived and the state had no `unreachable:`.
        case infrastructure(String)
        /// The run could not check what it set out to: it reached an end marked `skip: true`, or a `wait`
        /// longer than the run may wait. Never a pass; a scenario reports it skipped with the reason.
        case skipped(outcome: String, reason: String)
    }

    public var flow: String
    public var ending: Ending
    /// States visited, in order.
    public var path: [String]
    public var variables: [String: JSONValue]

    public init(flow: String, ending: Ending, path: [String] = [], variables: [String: JSONValue] = [:]) {
        self.flow = flow
        self.ending = ending
        self.path = path
        self.variables = variables
    }

    public var outcome: String {
        switch ending {
        case .end(let o, _, _, _): o
        case .unhandled: "unhandled"
        case .error, .infrastructure: "error"
        case .skipped(let o, _): o
        }
    }

    public var success: Bool {
        if case .end(_, let s, _, _) = ending { return s }
        return false
    }

    public var reason: String {
        switch ending {
        case .end(_, _, let r, _): r
        case .unhandled(let m), .error(let m), .infrastructure(let m): m
        case .skipped(_, let r): r
        }
    }

    public var outputs: [String: JSONValue] {
        if case .end(_, _, _, let o) = ending { return o }
        return [:]
    }

    /// Why nothing could be checked, when the run was skipped.
    public var skipReason: String? {
        if case .skipped(_, let r) = ending { return r }
        return nil
    }

    public var isInfrastructureFailure: Bool {
        if case .infrastructure = ending { return true }
        return false
    }
}

/// Every request sent and what came back, in order, for expectations and failure reports.
public actor ExchangeLog {
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

        public init(flow: String, state: String, request: HTTPRequest, response: HTTPResponse?, failure: TransportError?,
                    run: Int? = nil, visit: Int? = nil, durationSeconds: Double = 0) {
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

    public private(set) var entries: [Entry] = []

    public init() {}

    /// Requests that got no response at all, from `index` on: what makes a failed live run an
    /// infrastructure problem rather than a broken promise, even when the flow handled it (`unreachable:`).
    public func transportFailures(from index: Int = 0) -> [TransportError] {
        entries.dropFirst(index).compactMap(\.failure).filter { $0.kind != .unscripted }
    }

    public func record(_ entry: Entry) { entries.append(entry) }
}
