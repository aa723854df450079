import FlowSpecLanguage

/// One visit written as people read a run: by state name.
package struct NamedVisit: Sendable {
    package var state: String
    package var edge: Int?
    package var falseGuards: [Int]
    package init(state: String, edge: Int? = nil, falseGuards: [Int] = []) {
        self.state = state
        self.edge = edge
        self.falseGuards = falseGuards
    }
}

extension FlowRunTrace {
    /// A run written by state names, resolved against its compiled flow as the JSON report reader resolves one; a
    /// name the flow does not have stops the test (a typo in a fixture must not pass quietly).
    package static func named(
        id: Int = 0, _ flow: CompiledFlow, parent: Int? = nil, _ visits: [NamedVisit], outcome: String? = nil,
        success: Bool = false
    ) -> FlowRunTrace {
        FlowRunTrace(
            id: id, flow: flow, parent: parent,
            visits: visits.map { visit in
                guard let index = flow.index(of: visit.state) else {
                    fatalError("the fixture's flow \(flow.name) has no state `\(visit.state)`")
                }
                return Visit(state: index, edge: visit.edge, falseGuards: visit.falseGuards)
            }, outcome: outcome, success: success)
    }

    /// The visits by state name, for comparing with a fixture.
    package var namedVisits: [String] { visits.map { "\(state($0).name)\($0.edge.map { ":\($0)" } ?? "")" } }
}
