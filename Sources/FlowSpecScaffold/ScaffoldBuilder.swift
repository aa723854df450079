import FlowSpecDiagrams
import FlowSpecLanguage

// Over 300 lines: for each kind of state it works out, in reverse of the interpreter, what makes a given edge the one
// taken. The evaluator and the input-ordering rule are the interpreter's; why the stepping is not: docs/decisions.md,
// Diagrams, paths and scenario skeletons.

/// Walks a path state by state, choosing inputs, store and responses that make each edge the one taken,
/// and writes down a TODO wherever a choice cannot be derived. Called flows are walked too (their shortest
/// path to an end the caller's guard accepts), since their requests go to the same scripted backend.
struct ScaffoldBuilder {
    let specs: SpecSet
    var plan = ScaffoldPlan()
    /// `namespace.key` values the scenario has committed to (read by a guard or written by the flow).
    private var fixedStore: Set<String> = []
    /// Store as the run sees it now, by namespace; keys missing are absent.
    private var store: [String: [String: JSONValue]] = [:]
    private var unknownStore: [String: Set<String>] = [:]
    /// Inputs given out so far (the input source is shared by every flow of the run).
    private var inputValues: [String: String] = [:]
    private var clock = ScaffoldWorld.defaultClock
    /// How deep `call` states may nest before the rest is left as a TODO.
    static let maxCallDepth = 4

    init(specs: SpecSet) { self.specs = specs }

    /// Gives every run variable the flows read a placeholder, so headers like `apikey: ${vars.key}` render.
    mutating func seedVars(of flow: Flow) {
        for name in ScaffoldVars.needed(by: flow, specs: specs) { plan.vars[name] = ScaffoldVars.placeholder(name) }
    }

    /// Far in the future, so a placeholder expiry never triggers a proactive refresh.
    static let farFuture = 4_102_444_800.0

    /// Seeds the store with the keys the flow's sessions send (`Bearer ${store.access_token}`) and read to
    /// decide on a proactive refresh, as placeholders a person replaces.
    mutating func seedSessions(of flow: Flow, path: FlowPath) {
        var names: [String] = []
        for stateName in path.states {
            guard case .request(let r)? = flow.states[stateName]?.kind, !r.sessionOptOut,
                let s = (r.session ?? flow.session)?.name, !names.contains(s)
            else { continue }
            names.append(s)
        }
        for name in names {
            guard let session = specs.sessions[name] else { continue }
            var keys: [(String, JSONValue)] = []
            for (_, template) in session.headers {
                for expr in template.expressions {
                    for (key, _) in expr.storeReads { keys.append((key, .string("placeholder-\(key)"))) }
                }
            }
            if let expiresAt = session.refresh?.aheadExpiresAt {
                for (key, _) in expiresAt.storeReads { keys.append((key, .number(Self.farFuture))) }
            }
            for (key, value) in keys where plan.store[session.namespace]?[key] == nil {
                plan.store[session.namespace, default: [:]][key] = (value, true)
                store[session.namespace, default: [:]][key] = value
            }
        }
    }

    // MARK: - Walking

    mutating func walk(_ flow: Flow, edges: [Edge], with given: [String: String] = [:], depth: Int = 0) {
        var world = ScaffoldWorld()
        world.now = clock
        world.vars = plan.vars
        loadStore(flow.namespace, into: &world)
        var readInputs = Set<String>()
        for (name, value) in given {
            world.inputs[name] = value
            readInputs.insert(name)
        }
        for name in flow.variableInputReads { readInput(flow, name, &world, &readInputs) }
        for (name, expr) in flow.variables {
            if let value = world.evaluate(expr) { world.variables[name] = value }
        }
        for edge in edges {
            guard let state = flow.states[edge.state] else { continue }
            // A choice may pick an input's value (`inputs.role == "staff"`), so its reads come after choosing.
            let isChoice: Bool = if case .choice = state.kind { true } else { false }
            if !isChoice {
                for name in state.inputReadsBeforeActing where !isInputState(state) {
                    readInput(flow, name, &world, &readInputs)
                }
            }
            switch state.kind {
            case .request(let r): request(r, state, edge, flow, &world, &readInputs)
            case .input(let i): input(i, edge, flow, &world, &readInputs)
            case .choice(let transitions):
                choose(transitions, state, edge, flow, &world, &readInputs)
                for name in state.inputReads { readInput(flow, name, &world, &readInputs) }
            case .call(let c):
                call(c, state, edge, flow, &world, &readInputs, depth: depth)
            case .wait(let w):
                if case .number(let seconds)? = world.evaluate(w.duration) { world.now += seconds; clock = world.now }
            case .end: break
            }
        }
    }

    private func isInputState(_ state: State) -> Bool {
        if case .input = state.kind { return true }
        return false
    }

    /// The first read of an input in a run takes a value; the scenario gives it once per name.
    private mutating func readInput(
        _ flow: Flow, _ name: String, _ world: inout ScaffoldWorld, _ read: inout Set<String>
    ) {
        guard read.insert(name).inserted else { return }
        if let existing = inputValues[name] {
            world.inputs[name] = existing
            return
        }
        let decl =
            flow.input(named: name)
            ?? specs.reachable(from: [flow.name]).flows.lazy.compactMap { $0.input(named: name) }.first
        guard let decl, let value = ScaffoldInputs.valid(for: decl) else {
            plan.addInput(
                name, .init(value: "TODO", note: "TODO: a value for `\(name)` (no placeholder passes its rules)"))
            plan.todos.append("input `\(name)`: give a value that passes its type and pattern")
            inputValues[name] = "TODO"
            world.inputs[name] = "TODO"
            return
        }
        plan.addInput(name, .init(value: value, note: "TODO: placeholder \(decl.kind.rawValue)"))
        inputValues[name] = value
        world.inputs[name] = value
    }

    private mutating func input(
        _ i: InputState, _ edge: Edge, _ flow: Flow, _ world: inout ScaffoldWorld, _ read: inout Set<String>
    ) {
        let name = i.input.name
        read.insert(name)
        guard let decl = flow.input(named: name) else { return }
        if edge.kind == .invalidInput {
            if let bad = ScaffoldInputs.invalid(for: decl) {
                plan.addInput(name, .init(value: bad, note: "TODO: invalid on purpose (this path takes `invalid:`)"))
                world.inputs[name] = bad
                world.variables["input_error"] = .string(decl.problem(with: bad) ?? "invalid")
            } else {
                plan.addInput(name, .init(value: "TODO", note: "TODO: a value `\(name)` rejects"))
                plan.todos.append(
                    "input `\(name)` at `\(edge.state)`: give a value its rules reject (this path takes `invalid:`)")
            }
            return
        }
        let value = ScaffoldInputs.valid(for: decl) ?? "TODO"
        if ScaffoldInputs.valid(for: decl) == nil {
            plan.todos.append("input `\(name)` at `\(edge.state)`: give a value that passes its rules")
        }
        plan.addInput(name, .init(value: value, note: "TODO: placeholder \(decl.kind.rawValue)"))
        inputValues[name] = value
        world.inputs[name] = value
    }

    private mutating func request(
        _ r: RequestState, _ state: State, _ edge: Edge, _ flow: Flow,
        _ world: inout ScaffoldWorld, _ read: inout Set<String>
    ) {
        var todos: [String] = []
        let (path, pathTodo) = requestPath(r, world)
        if let pathTodo { todos.append(pathTodo) }
        world.status = 200
        world.body = .null
        world.headers = [:]
        let response: ScaffoldPlan.Exchange.Response
        if edge.kind == .unreachable {
            response = .refused
        } else {
            let solution = GuardHints.choose(
                r.transitions, index: edge.index, in: world, isFree: isFree(flow, read, response: true))
            if let solution {
                commit(solution, flow, &world, &read)
                fillActionReads(r.transitions, edge, &world, isFree: isFree(flow, read, response: true))
            } else {
                todos.append(guardTodo(r.transitions, edge, world))
            }
            todos += sessionTodos(r, flow, world)
            let headers = world.headers.keys.sorted().map { ($0, world.headers[$0]!) }
            response = .reply(status: world.status ?? 200, headers: headers, json: world.body.isNull ? nil : world.body)
        }
        fixReads(r.transitions, flow)
        plan.exchanges.append(
            .init(
                flow: flow.name, state: state.name, edgeText: describe(edge), method: r.method, path: path,
                response: response, todos: todos))
        if edge.index < r.transitions.count { act(r.transitions[edge.index], flow, &world) }
    }

    private mutating func choose(
        _ transitions: [Transition], _ state: State, _ edge: Edge, _ flow: Flow,
        _ world: inout ScaffoldWorld, _ read: inout Set<String>
    ) {
        if let solution = GuardHints.choose(
            transitions, index: edge.index, in: world, isFree: isFree(flow, read, response: false))
        {
            commit(solution, flow, &world, &read)
        } else {
            plan.todos.append("choice `\(state.name)`: " + guardTodo(transitions, edge, world))
        }
        fixReads(transitions, flow)
        act(transitions[edge.index], flow, &world)
    }

    private mutating func call(
        _ c: CallState, _ state: State, _ edge: Edge, _ flow: Flow,
        _ world: inout ScaffoldWorld, _ read: inout Set<String>, depth: Int
    ) {
        defer { world.call = nil }
        guard let sub = specs.flows[c.flow.name], depth < Self.maxCallDepth else {
            plan.todos.append(
                "call `\(state.name)`: script the requests of `\(c.flow.name)` that lead to `\(edge.target)`")
            for name in state.inputReadsAfterActing { readInput(flow, name, &world, &read) }
            return
        }
        let compiled = specs.compiled[sub.name] ?? CompiledFlow(sub)
        // The first end (file order) of the called flow under which this edge is the one taken.
        var chosen: FlowPath?
        for end in compiled.endStates {
            guard let ending = end.ending, let path = PathFinder.shortestPath(compiled, to: end.name) else {
                continue
            }
            var trial = world
            trial.call = (ending.outcome, ending.success)
            if GuardHints.choose(c.transitions, index: edge.index, in: trial, isFree: { _ in false }) != nil {
                chosen = path
                world.call = trial.call
                break
            }
        }
        guard let chosen else {
            plan.todos.append(
                "call `\(state.name)`: " + guardTodo(c.transitions, edge, world)
                    + "; script the requests of `\(c.flow.name)` that end that way")
            for name in state.inputReadsAfterActing { readInput(flow, name, &world, &read) }
            return
        }
        var given: [String: String] = [:]
        for (ref, expr) in c.with {
            if let value = world.evaluate(expr) {
                given[ref.name] = value.interpolated
            } else {
                plan.todos.append(
                    "call `\(state.name)`: `with: \(ref.name)` could not be worked out; check the called flow's requests"
                )
            }
        }
        saveStore(flow.namespace, world)
        walk(sub, edges: chosen.edges, with: given, depth: depth + 1)
        loadStore(flow.namespace, into: &world)
        world.now = clock
        // As a run does (`State.inputReadsAfterActing`): what the transitions read is asked for after the call.
        for name in state.inputReadsAfterActing { readInput(flow, name, &world, &read) }
        act(c.transitions[edge.index], flow, &world)
    }

    // MARK: - Helpers

    /// What a guard may choose: the response in a request state, store keys not yet committed, inputs not yet read.
    private func isFree(_ flow: Flow, _ read: Set<String>, response: Bool) -> (HintFact) -> Bool {
        let fixed = fixedStore
        let namespace = flow.namespace
        let inputs = Set(specs.reachable(from: [flow.name]).flows.flatMap { $0.inputs.map(\.name) })
        let given = inputValues
        return { fact in
            switch fact {
            case .status, .body, .header: return response
            case .store(let key): return !fixed.contains("\(namespace).\(key)")
            case .input(let name): return inputs.contains(name) && !read.contains(name) && given[name] == nil
            }
        }
    }

    private mutating func commit(
        _ solution: [HintFact: JSONValue], _ flow: Flow, _ world: inout ScaffoldWorld, _ read: inout Set<String>
    ) {
        world = GuardHints.apply(solution, to: world)
        for (fact, value) in solution.sorted(by: { $0.key.description < $1.key.description }) {
            switch fact {
            case .store(let key):
                fixedStore.insert("\(flow.namespace).\(key)")
                if value.isNull {
                    plan.store[flow.namespace]?[key] = nil
                    store[flow.namespace]?[key] = nil
                } else {
                    plan.store[flow.namespace, default: [:]][key] = (value, true)
                    store[flow.namespace, default: [:]][key] = value
                }
            case .input(let name):
                let text = value.stringValue ?? flow.input(named: name).flatMap(ScaffoldInputs.valid) ?? "TODO"
                read.insert(name)
                inputValues[name] = text
                world.inputs[name] = text
                if let decl = flow.input(named: name), decl.problem(with: text) != nil {
                    plan.todos.append("input `\(name)`: the value the guards need (\(text)) does not pass its rules")
                }
                plan.addInput(name, .init(value: text, note: "TODO: chosen to match the guards on this path"))
            default: break
            }
        }
    }

    /// Keys a state's guards read stay as they are from now on, so a later guard cannot contradict this one.
    private mutating func fixReads(_ transitions: [Transition], _ flow: Flow) {
        for t in transitions {
            for (key, _) in t.guardExpr?.storeReads ?? [] { fixedStore.insert("\(flow.namespace).\(key)") }
        }
    }

    /// `set`, `store`, `forget` of the edge taken, evaluated against the values before it.
    private mutating func act(_ t: Transition, _ flow: Flow, _ world: inout ScaffoldWorld) {
        let before = world
        for (name, expr) in t.set + t.store where before.evaluate(expr) == nil && GuardHints.mayFail(expr) {
            plan.todos.append(
                "`\(name): \(expr.text)` (\(expr.location.file):\(expr.location.line)) could not be worked out; check it can be computed on this path"
            )
        }
        for (name, expr) in t.set { world.variables[name] = before.evaluate(expr) }
        for (key, expr) in t.store {
            fixedStore.insert("\(flow.namespace).\(key)")
            if let value = before.evaluate(expr) {
                world.unknownStore.remove(key)
                world.store[key] = value.isNull ? nil : value
            } else {
                world.unknownStore.insert(key)
            }
        }
        switch t.forget {
        case .nothing: break
        case .keys(let keys):
            for key in keys {
                fixedStore.insert("\(flow.namespace).\(key)")
                world.store[key] = nil
                world.unknownStore.remove(key)
            }
        case .all:
            for key in Set(world.store.keys).union(world.unknownStore) { fixedStore.insert("\(flow.namespace).\(key)") }
            world.store = [:]
            world.unknownStore = []
        }
        saveStore(flow.namespace, world)
    }

    private mutating func saveStore(_ namespace: String, _ world: ScaffoldWorld) {
        store[namespace] = world.store
        unknownStore[namespace] = world.unknownStore
    }

    private func loadStore(_ namespace: String, into world: inout ScaffoldWorld) {
        world.store = store[namespace] ?? [:]
        world.unknownStore = unknownStore[namespace] ?? []
    }

    /// The request's path as the scripted backend will see it; unknown parts become TODO.
    private func requestPath(_ r: RequestState, _ world: ScaffoldWorld) -> (String, String?) {
        guard let template = r.url ?? r.path else { return ("/", nil) }
        var text = ""
        var unknown: [String] = []
        for part in template.parts {
            switch part {
            case .text(let t): text += t
            case .expr(let e):
                if let value = world.evaluate(e) {
                    text += value.interpolated
                } else {
                    text += "TODO"
                    unknown.append("${\(e.text)}")
                }
            }
        }
        if r.url != nil { text = Self.pathOfURL(text) }
        if let q = text.firstIndex(of: "?") { text = String(text[..<q]) }
        if text.isEmpty { text = "/" }
        guard !unknown.isEmpty else { return (text, nil) }
        return (
            text,
            "replace TODO in the path with the value of \(unknown.joined(separator: ", ")) (written `\(template.source)`)"
        )
    }

    /// `https://host:8080/a/b?x` → `/a/b?x`.
    static func pathOfURL(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...])
    }

    private func guardTodo(_ transitions: [Transition], _ edge: Edge, _ world: ScaffoldWorld) -> String {
        let earlier = transitions.prefix(edge.index).compactMap { $0.guardExpr?.text }
        let target = edge.index < transitions.count ? transitions[edge.index].guardExpr : nil
        // A part of the guard the scenario cannot choose (a counter, a variable) that is already false here
        // means the path as listed cannot happen: say so rather than ask for the impossible.
        if let target {
            let known = Self.conjuncts(target).filter { world.truth($0) == false && !GuardHints.readsResponse($0) }
            if let first = known.first {
                return
                    "TODO: `\(ScaffoldExprText.render(first))` is false at this point of the path (values so far: \(describe(variablesOf: first, world))); "
                    + "the run must go round a loop more times first: add those steps, or drop this scenario"
            }
        }
        var parts: [String] = []
        if let target { parts.append("make `\(target.text)` true") }
        if !earlier.isEmpty { parts.append("make " + earlier.map { "`\($0)`" }.joined(separator: ", ") + " false") }
        return "TODO: " + (parts.isEmpty ? "check the response" : parts.joined(separator: " and "))
    }

    static func conjuncts(_ expr: Expr) -> [Expr] {
        if case .binary(.and, let l, let r) = expr.kind { return conjuncts(l) + conjuncts(r) }
        return [expr]
    }

    private func describe(variablesOf expr: Expr, _ world: ScaffoldWorld) -> String {
        let names = Array(Set(expr.variableReads.map(\.0))).sorted()
        if names.isEmpty { return "none it can change" }
        return names.map { "\($0) = \(world.variables[$0]?.compactJSON ?? "unknown")" }.joined(separator: ", ")
    }

    /// Gives the fields the taken transition's `set:`/`store:` read a value, when the guards still hold with it.
    private mutating func fillActionReads(
        _ transitions: [Transition], _ edge: Edge, _ world: inout ScaffoldWorld,
        isFree: (HintFact) -> Bool
    ) {
        guard edge.index < transitions.count else { return }
        let t = transitions[edge.index]
        let extra = GuardHints.placeholders(for: t.set.map(\.1) + t.store.map(\.1), in: world, isFree: isFree)
        guard !extra.isEmpty else { return }
        let candidate = GuardHints.apply(extra, to: world)
        if GuardHints.holds(transitions, index: edge.index, in: candidate) { world = candidate }
    }

    /// A response that the flow's session would intercept (refresh-and-retry) needs the refresh flow scripted too.
    private func sessionTodos(_ r: RequestState, _ flow: Flow, _ world: ScaffoldWorld) -> [String] {
        guard !r.sessionOptOut, let name = (r.session ?? flow.session)?.name,
            let refresh = specs.sessions[name]?.refresh,
            let when = refresh.when
        else { return [] }
        // A status the request answers with (`answers:`, `refresh.not_for`) is never refreshed.
        if let status = world.status, r.answers(status, in: specs.sessions[name]!) { return [] }
        var sessionWorld = world
        sessionWorld.vars = plan.vars
        loadStore(specs.sessions[name]!.namespace, into: &sessionWorld)
        if sessionWorld.truth(when) == false { return [] }
        return [
            "TODO: this response matches session `\(name)`'s refresh guard (`\(when.text)`): the run refreshes "
                + "through `\(refresh.flow.name)` and retries once; add those exchanges and the retried request's response"
        ]
    }

    func describe(_ edge: Edge) -> String {
        (edge.label.isEmpty ? "" : edge.label + " ") + "→ \(edge.target)"
    }
}
