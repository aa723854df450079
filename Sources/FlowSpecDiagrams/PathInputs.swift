import FlowSpecLanguage

extension FlowPath {
    /// The inputs a run along this path reads, in the order it first reads them: the flow's initial
    /// `variables:`, then each state's expressions and input states. Inputs of called flows are not included.
    package func inputs(in flow: CompiledFlow) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        func add(_ name: String) { if seen.insert(name).inserted { out.append(name) } }
        flow.flow.variableInputReads.forEach(add)
        for name in states {
            guard let state = flow.state(named: name) else { continue }
            if case .input(let i) = state.kind { add(i.input.name) }
            state.inputReads.forEach(add)
        }
        return out
    }

    /// The edge this path was listed for, if it was listed for an edge.
    package var coveredEdge: Edge? {
        if case .edge(let edge) = purpose { return edge }
        return nil
    }
}
