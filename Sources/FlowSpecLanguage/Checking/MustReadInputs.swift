/// The inputs a flow reads on *every* path from its start to an end state — its own reads, its `input:`
/// states, and what the flows it calls always read and are not given by `with:`. A scenario that gives none
/// of them is bound to fail at run time ("missing input"), so `check` says so before anything runs.
package enum MustReadInputs {
    package static func of(_ flowName: String, specs: SpecSet) -> Set<String> {
        var memo: [String: Set<String>] = [:]
        return compute(flowName, specs, &memo, calling: [])
    }

    private static func compute(
        _ name: String, _ specs: SpecSet, _ memo: inout [String: Set<String>], calling: Set<String>
    ) -> Set<String> {
        if let known = memo[name] { return known }
        // A call cycle is already an error of its own; reading nothing for it keeps this check quiet about it.
        guard let flow = specs.flows[name], !calling.contains(name), flow.states[flow.start.name] != nil else {
            return []
        }
        var reads: [String: Set<String>] = [:]
        for stateName in flow.stateOrder {
            guard let state = flow.states[stateName] else { continue }
            var here = Set(state.inputReads)
            switch state.kind {
            case .input(let i): here.insert(i.input.name)
            case .call(let c):
                let given = Set(c.with.map(\.0.name))
                here.formUnion(compute(c.flow.name, specs, &memo, calling: calling.union([name])).subtracting(given))
            case .request, .choice, .wait, .end: break
            }
            reads[stateName] = here
        }
        // Greatest fixed point of M(s) = reads(s) ∪ ⋂ M(successor): start from "everything" and shrink. A path
        // that never reaches an end keeps "everything", so it never hides a read made on the paths that do end.
        let everything = reads.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        var must: [String: Set<String>] = [:]
        for (stateName, here) in reads {
            if case .end? = flow.states[stateName]?.kind {
                must[stateName] = here
            } else {
                must[stateName] = everything
            }
        }
        var changed = true
        while changed {
            changed = false
            for stateName in flow.stateOrder {
                guard let state = flow.states[stateName], !state.successors.isEmpty else { continue }
                let targets = state.successors.compactMap { must[$0.target.name] }
                let onward = targets.dropFirst().reduce(targets.first ?? everything) { $0.intersection($1) }
                let updated = reads[stateName, default: []].union(onward)
                if updated != must[stateName] {
                    must[stateName] = updated
                    changed = true
                }
            }
        }
        let result = must[flow.start.name, default: []].union(flow.variableInputReads)
        memo[name] = result
        return result
    }
}
