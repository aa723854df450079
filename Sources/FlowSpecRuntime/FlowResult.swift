import FlowSpecLanguage

/// How one run of a flow ended.
package struct FlowResult: Sendable {
    package enum Ending: Sendable {
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

    package var flow: String
    package var ending: Ending
    /// States visited, in order.
    package var path: [String]
    package var variables: [String: JSONValue]

    package init(flow: String, ending: Ending, path: [String] = [], variables: [String: JSONValue] = [:]) {
        self.flow = flow
        self.ending = ending
        self.path = path
        self.variables = variables
    }

    package var outcome: String {
        switch ending {
        case .end(let o, _, _, _): o
        case .unhandled: "unhandled"
        case .error, .infrastructure: "error"
        case .skipped(let o, _): o
        }
    }

    package var success: Bool {
        if case .end(_, let s, _, _) = ending { return s }
        return false
    }

    package var reason: String {
        switch ending {
        case .end(_, _, let r, _): r
        case .unhandled(let m), .error(let m), .infrastructure(let m): m
        case .skipped(_, let r): r
        }
    }

    package var outputs: [String: JSONValue] {
        if case .end(_, _, _, let o) = ending { return o }
        return [:]
    }

    /// Why nothing could be checked, when the run was skipped.
    package var skipReason: String? {
        if case .skipped(_, let r) = ending { return r }
        return nil
    }

    package var isInfrastructureFailure: Bool {
        if case .infrastructure = ending { return true }
        return false
    }
}
