import Foundation

/// The static checks of one flow: references, types, reachability, dead ends and variables read before set.
package enum FlowChecker {
    static func resolveNamespace(_ flow: Flow, in specs: SpecSet) -> String {
        if flow.namespaceWasDeclared { return flow.namespace }
        if let s = flow.session, let session = specs.sessions[s.name] { return session.namespace }
        for state in flow.orderedStates {
            if case .request(let r) = state.kind, let s = r.session, let session = specs.sessions[s.name] {
                return session.namespace
            }
        }
        // A refresh flow runs in its session's namespace.
        if let session = specs.sessions.values.first(where: { $0.refresh?.flow.name == flow.name }) {
            return session.namespace
        }
        return flow.namespace
    }

    package static func check(_ flow: Flow, in specs: SpecSet, into d: inout Diagnostics) {
        let checks: [@Sendable (inout Diagnostics) -> Void] = [
            { checkName(flow, &$0) }, { checkReferences(flow, specs, &$0) }, { checkExpressions(flow, specs, &$0) },
            { checkGraph(flow, &$0) }, { checkVariables(flow, &$0) },
        ]
        // A large flow's checks run side by side, each with its own messages, joined in this order: the same
        // messages in the same order as one after the other (run one after the other, checking a large flow kept
        // one core busy and left the other idle).
        guard flow.states.count > SideBySide.largeFlowStates else { return checks.forEach { $0(&d) } }
        for found in SideBySide.map(
            count: checks.count,
            { index in
                var found = Diagnostics()
                checks[index](&found)
                return found
            })
        {
            d.append(contentsOf: found)
        }
    }

    static func checkName(_ flow: Flow, _ d: inout Diagnostics) {
        let system: String, stem: String, fileName: String
        if let parts = PathText.folderAndStem(ofYAML: flow.file) {
            system = String(parts.folder)
            stem = String(parts.stem)
            fileName = String(flow.file[parts.stem.startIndex...])
        } else {
            let url = URL(fileURLWithPath: flow.file)
            (system, stem, fileName) = (
                url.deletingLastPathComponent().lastPathComponent, url.deletingPathExtension().lastPathComponent,
                url.lastPathComponent
            )
        }
        let expected = "\(system).\(stem)"
        if flow.name != expected, !flow.name.hasSuffix(".\(stem)") {
            d.warning(flow.location, "flow `\(flow.name)` is in \(fileName); by convention its name is `\(expected)`")
        }
    }

    static func stateRef(_ ref: NameRef, _ flow: Flow, _ d: inout Diagnostics) {
        if flow.states[ref.name] == nil, !flow.brokenStates.contains(ref.name) {
            let all = flow.stateOrder + flow.brokenStates.sorted()
            d.error(
                ref.location, "unknown state `\(ref.name)`",
                hint: Suggestion.didYouMean(ref.name, in: all) ?? "states in this flow: " + all.joined(separator: ", "))
        }
    }

    static func sessionRef(_ ref: NameRef, _ flow: Flow, _ specs: SpecSet, _ d: inout Diagnostics) {
        guard let session = specs.sessions[ref.name] else {
            d.error(
                ref.location, "unknown session `\(ref.name)`",
                hint: Suggestion.didYouMean(ref.name, in: specs.sessions.keys)
                    ?? "sessions are files with a top-level `session:` key, loaded from the same folders")
            return
        }
        if flow.namespaceWasDeclared, session.namespace != flow.namespace {
            d.error(
                ref.location,
                "session `\(session.name)` keeps its tokens in namespace `\(session.namespace)`, but this flow declares `namespace: \(flow.namespace)`",
                hint: "use the session's namespace, or drop `namespace:` to inherit it")
        }
    }

    /// `answers:` tells the request's session which statuses are not an expired token: without a session (or
    /// without a reactive refresh in it) it would silently do nothing.
    static func checkAnswers(_ r: RequestState, _ flow: Flow, _ specs: SpecSet, _ d: inout Diagnostics) {
        guard !r.answers.isEmpty, !r.sessionOptOut, let at = r.answersLocation else { return } // `session: none` is reported when decoded
        guard let ref = r.session ?? flow.session else {
            d.error(
                at, "`answers:` applies to a request sent through a session, and this one has none",
                hint:
                    "add `session: NAME` to the state (or the flow), or remove `answers:`; without a session no status triggers a refresh"
            )
            return
        }
        guard let session = specs.sessions[ref.name] else { return } // unknown session: reported where it is named
        if session.refresh?.when == nil {
            d.warning(
                at,
                "session `\(session.name)` has no `refresh.when`, so no response triggers a refresh and `answers:` changes nothing",
                hint: "remove `answers:`, or give the session a reactive refresh")
        }
    }

    static func checkReferences(_ flow: Flow, _ specs: SpecSet, _ d: inout Diagnostics) {
        stateRef(flow.start, flow, &d)
        if let s = flow.session { sessionRef(s, flow, specs, &d) }
        let inputNames = Set(flow.inputs.map(\.name))
        for state in flow.orderedStates {
            for (target, _) in state.successors { stateRef(target, flow, &d) }
            switch state.kind {
            case .request(let r):
                if let s = r.session { sessionRef(s, flow, specs, &d) }
                checkAnswers(r, flow, specs, &d)
            case .input(let i):
                if !inputNames.contains(i.input.name) {
                    d.error(
                        i.input.location, "undeclared input `\(i.input.name)`",
                        hint: Suggestion.didYouMean(i.input.name, in: inputNames) ?? "declare it under `inputs:`")
                }
            case .call(let c):
                guard
                    let callee = specs.flow(
                        c.flow, otherwise: "flows are named `<system>.<file stem>`", reportingTo: &d)
                else { continue }
                if callee.name == flow.name { d.error(c.flow.location, "flow `\(flow.name)` calls itself") }
                let calleeInputs = callee.inputs.map(\.name)
                for (arg, _) in c.with where !calleeInputs.contains(arg.name) {
                    d.error(
                        arg.location, "flow `\(callee.name)` has no input `\(arg.name)`",
                        hint: Suggestion.amongNames(arg.name, in: calleeInputs, listing: "inputs"))
                }
            case .choice, .wait, .end: break
            }
        }
    }

    static func checkExpressions(_ flow: Flow, _ specs: SpecSet, _ d: inout Diagnostics) {
        let inputs = Set(flow.inputs.map(\.name))
        for (_, expr) in flow.variables {
            TypeChecker.check(expr, in: ExprContext(place: "`variables`", declaredInputs: inputs), into: &d)
        }
        for template in [flow.baseURL].compactMap({ $0 }) + flow.headers.map(\.1) {
            for expr in template.expressions {
                TypeChecker.check(expr, in: ExprContext(place: "`defaults`", declaredInputs: inputs), into: &d)
            }
        }
        for state in flow.orderedStates {
            let name = state.name
            let here = "state `\(name)`"
            switch state.kind {
            case .request(let r):
                let templates = [r.path, r.url].compactMap { $0 } + r.query.map(\.1) + r.headers.map(\.1)
                var exprs = templates.flatMap(\.expressions)
                switch r.body {
                case .json(let v): exprs += v.expressions
                case .form(let fields): exprs += fields.flatMap { $0.1.expressions }
                case .none: break
                }
                let building = ExprContext(
                    place: "the request being built in \(here) (there is no response yet)", declaredInputs: inputs)
                for e in exprs { TypeChecker.check(e, in: building, into: &d) }
                checkTransitions(r.transitions, ExprContext(place: here, hasResponse: true, declaredInputs: inputs), &d)
            case .choice(let transitions):
                checkTransitions(
                    transitions,
                    ExprContext(place: "the choice state `\(name)` (it makes no request)", declaredInputs: inputs), &d)
            case .call(let c):
                for (_, e) in c.with {
                    TypeChecker.check(e, in: ExprContext(place: "`with` of \(here)", declaredInputs: inputs), into: &d)
                }
                checkTransitions(
                    c.transitions, ExprContext(place: here, hasCallResult: true, declaredInputs: inputs), &d)
            case .wait(let w):
                let type = TypeChecker.check(
                    w.duration, in: ExprContext(place: "`wait`", declaredInputs: inputs), into: &d)
                if type != .number, type != .any {
                    d.error(
                        w.duration.location, "`wait` needs a duration such as `16m` or `30s`, not a \(type.rawValue)")
                }
            case .end(let e):
                for expr in (e.reason?.expressions ?? []) + e.outputs.map(\.1) {
                    TypeChecker.check(
                        expr, in: ExprContext(place: "end state `\(name)`", declaredInputs: inputs), into: &d)
                }
            case .input:
                break
            }
        }
    }

    static func checkTransitions(_ transitions: [Transition], _ context: ExprContext, _ d: inout Diagnostics) {
        for t in transitions {
            if let g = t.guardExpr { TypeChecker.checkCondition(g, in: context, into: &d) }
            for (_, e) in t.set + t.store { TypeChecker.check(e, in: context, into: &d) }
        }
    }

    static func checkGraph(_ flow: Flow, _ d: inout Diagnostics) {
        guard flow.states[flow.start.name] != nil else { return }
        // Reachable from start.
        var reachable: Set<String> = [flow.start.name]
        var queue = [flow.start.name]
        while let name = queue.popLast() {
            for (target, _) in flow.states[name]?.successors ?? [] where flow.states[target.name] != nil {
                if reachable.insert(target.name).inserted { queue.append(target.name) }
            }
        }
        // A state that did not load may be the one that leads on: its own error says enough.
        for state in flow.orderedStates where !reachable.contains(state.name) && flow.brokenStates.isEmpty {
            d.warning(
                state.location,
                "state `\(state.name)` is unreachable: no transition leads to it from `\(flow.start.name)`")
        }
        // States that can reach an end, found backwards from the ends along the transitions into each state (once:
        // re-scanning every state until nothing changed was quadratic on a long chain of states). A call whose
        // sub-flow ends abnormally ends the caller, and a request can end unhandled; but if every written path
        // loops, the run can only exhaust its step budget. A transition to a state that did not load counts as
        // reaching an end: that state's own error says enough.
        let ordered = flow.orderedStates
        if !ordered.contains(where: { $0.ending != nil }) {
            d.error(
                flow.location, "flow `\(flow.name)` has no end state",
                hint: "add a state with `end: <outcome>` and `success:`")
        }
        var predecessors: [String: [String]] = [:]
        var canEnd: Set<String> = []
        var found: [String] = []
        for state in ordered {
            let successors = state.successors
            for successor in successors { predecessors[successor.target.name, default: []].append(state.name) }
            if state.ending != nil || successors.contains(where: { flow.states[$0.target.name] == nil }) {
                if canEnd.insert(state.name).inserted { found.append(state.name) }
            }
        }
        while let name = found.popLast() {
            for predecessor in predecessors[name] ?? [] where canEnd.insert(predecessor).inserted {
                found.append(predecessor)
            }
        }
        for state in ordered where !canEnd.contains(state.name) && reachable.contains(state.name) {
            let name = state.name
            if state.successors.isEmpty {
                d.error(
                    state.location, "state `\(name)` is a dead end: it is not an end state and has no transitions",
                    hint: "add transitions with `goto:`, or make it an end state")
            } else {
                d.error(
                    state.location, "state `\(name)` can never reach an end state: every path from it loops",
                    hint: "add a transition that leaves the loop")
            }
        }
    }

    /// Dataflow: a variable is usable in a state only if every path from `start` to it sets it.
    static func checkVariables(_ flow: Flow, _ d: inout Diagnostics) {
        guard flow.states[flow.start.name] != nil else { return }
        let initial = Set(flow.variables.map(\.0))
        var everSet = initial
        for state in flow.orderedStates {
            for (_, sets) in state.successors { everSet.formUnion(sets) }
        }
        // nil = not yet reached (top of the lattice).
        var entry: [String: Set<String>] = [flow.start.name: initial]
        var work = [flow.start.name]
        while let name = work.popLast() {
            guard let state = flow.states[name], let inSet = entry[name] else { continue }
            for (target, sets) in state.successors where flow.states[target.name] != nil {
                let out = inSet.union(sets)
                let merged = entry[target.name].map { $0.intersection(out) } ?? out
                if entry[target.name] != merged {
                    entry[target.name] = merged
                    work.append(target.name)
                }
            }
        }
        for state in flow.orderedStates {
            let name = state.name
            guard let defined = entry[name] else { continue }
            for expr in expressions(in: state) {
                for (variable, location) in expr.variableReads {
                    if !everSet.contains(variable) {
                        let hint =
                            Suggestion.didYouMean(variable, in: everSet.union(Root.allCases.map(\.rawValue)))
                            ?? (flow.input(named: variable) != nil
                                ? "inputs are read as `inputs.\(variable)`"
                                : "set it with `set:` in a transition, or give it an initial value under `variables:`")
                        d.error(location, "unknown variable `\(variable)`", hint: hint)
                    } else if !defined.contains(variable) {
                        d.error(
                            location,
                            "variable `\(variable)` may be read before it is set: some path to state `\(name)` does not set it",
                            hint: "set it on every path, or give it an initial value under `variables:`")
                    }
                }
            }
        }
        for (_, expr) in flow.variables {
            for (variable, location) in expr.variableReads {
                d.error(location, "initial values cannot read variables (`\(variable)`)")
            }
        }
    }

    package static func expressions(in state: State) -> [Expr] {
        switch state.kind {
        case .request(let r):
            var exprs = ([r.path, r.url].compactMap { $0 } + r.query.map(\.1) + r.headers.map(\.1)).flatMap(
                \.expressions)
            switch r.body {
            case .json(let v): exprs += v.expressions
            case .form(let f): exprs += f.flatMap { $0.1.expressions }
            case .none: break
            }
            return exprs + r.transitions.flatMap(\.expressions)
        case .choice(let t): return t.flatMap(\.expressions)
        case .call(let c): return c.with.map(\.1) + c.transitions.flatMap(\.expressions)
        case .wait(let w): return [w.duration]
        case .end(let e): return (e.reason?.expressions ?? []) + e.outputs.map(\.1)
        case .input: return []
        }
    }
}
