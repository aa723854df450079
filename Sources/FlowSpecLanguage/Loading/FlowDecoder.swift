/// Turns a flow file's YAML into a `Flow`, reporting every shape problem with its position.
package enum FlowDecoder {
    /// Why a flow variable cannot be called `it`.
    static let elementNameHint =
        "inside any, all, count, filter, first and map, `it` is the list's element; pick another name"

    static let topKeys = [
        "flow", "title", "namespace", "session", "inputs", "defaults", "variables", "max_steps", "start", "states",
    ]
    static let stateKinds = ["request", "input", "choice", "call", "wait", "end"]
    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    package static func decode(_ root: YAMLNode, file: String, _ d: inout Diagnostics) -> Flow? {
        guard
            let fields = Fields(
                root, what: "a flow", allowed: topKeys, nested: ["base_url": "defaults", "headers": "defaults"],
                diagnostics: &d)
        else { return nil }
        let name = fields.string("flow", required: true, &d)
        let title = fields.string("title", &d)?.name
        let namespace = fields.string("namespace", &d)
        let session = fields.string("session", &d)
        let inputs = decodeInputs(fields, &d)
        var baseURL: Template?
        var headers: [(String, Template)] = []
        if let defaults = fields["defaults"],
            let df = Fields(defaults, what: "`defaults`", allowed: ["base_url", "headers"], diagnostics: &d)
        {
            if let node = df["base_url"] { baseURL = ExprReader.template(node, what: "`base_url`", &d) }
            headers = templateMap(df, "headers", &d)
        }
        var variables: [(String, Expr)] = []
        for (ref, node) in fields.map("variables", &d) ?? [] {
            if Root.isReserved(ref.name) {
                d.error(
                    ref.location, "`\(ref.name)` is a reserved name and cannot be a variable",
                    hint: ref.name == Expr.elementName ? Self.elementNameHint : nil)
            }
            if let expr = ExprReader.value(node, what: "the initial value of `\(ref.name)`", &d) {
                variables.append((ref.name, expr))
            }
        }
        let maxSteps = fields.int("max_steps", &d, range: 1...100_000) ?? Flow.defaultMaxSteps
        let start = fields.string("start", required: true, &d, hint: "name the first state, e.g. `start: login`")

        var states: [String: State] = [:]
        var order: [String] = []
        var broken: Set<String> = []
        if let statesNode = fields.require("states", &d) {
            if let pairs = Fields.pairs(of: statesNode, what: "`states`", &d) {
                if pairs.isEmpty {
                    d.error(statesNode.location, "`states` is empty", hint: "a flow needs at least one end state")
                }
                for ((ref, _), (state, stateDiagnostics)) in zip(pairs, decodeStates(pairs)) {
                    d.append(contentsOf: stateDiagnostics)
                    if let state {
                        states[ref.name] = state
                        order.append(ref.name)
                    } else {
                        broken.insert(ref.name)
                    }
                }
            }
        }
        guard let name, let start else { return nil }
        var flow = Flow(
            name: name.name, title: title, file: file, location: root.location,
            namespace: namespace?.name ?? "default", namespaceWasDeclared: namespace != nil,
            session: session, inputs: inputs, baseURL: baseURL, headers: headers, variables: variables,
            maxSteps: maxSteps, start: start, states: states, stateOrder: order)
        flow.brokenStates = broken
        flow.variableInputReads = inputNames(variables.map(\.1))
        return flow
    }

    /// The states in the order given, each with its own messages. A large flow's states are decoded side by side
    /// (each is decoded on its own; parsing their expressions is most of loading a 1,000-state flow).
    static func decodeStates(_ pairs: [(NameRef, YAMLNode)]) -> [(State?, Diagnostics)] {
        @Sendable func decode(_ index: Int) -> (State?, Diagnostics) {
            var d = Diagnostics()
            guard var state = decodeState(pairs[index].0, pairs[index].1, &d) else { return (nil, d) }
            state.inputReads = inputNames(FlowChecker.expressions(in: state))
            return (state, d)
        }
        // A large flow's states, side by side in chunks of 16: small enough that the core which takes the last chunk is
        // not left working alone for long (with chunks of 64, one core sat idle while the other finished the last).
        guard pairs.count > SideBySide.largeFlowStates else { return pairs.indices.map(decode) }
        let chunk = 16
        let chunks = (pairs.count + chunk - 1) / chunk
        return SideBySide.map(count: chunks) { c in (c * chunk..<min(pairs.count, (c + 1) * chunk)).map(decode) }
            .flatMap { $0 }
    }

    static func inputNames(_ exprs: [Expr]) -> [String] {
        var seen = Set<String>()
        return exprs.flatMap(\.inputReads).map(\.0).filter { seen.insert($0).inserted }
    }

    static func decodeInputs(_ fields: Fields, _ d: inout Diagnostics) -> [InputDecl] {
        var out: [InputDecl] = []
        for (ref, node) in fields.map("inputs", &d) ?? [] {
            var kind = InputDecl.Kind.string
            var pattern: CompiledRegex?
            var secret = false
            var prompt: String?
            if !node.isNull {
                guard
                    let f = Fields(
                        node, what: "input `\(ref.name)`", allowed: ["type", "pattern", "secret", "prompt"],
                        diagnostics: &d)
                else { continue }
                if let t = f.string("type", &d) {
                    if let k = InputDecl.Kind(rawValue: t.name) {
                        kind = k
                    } else {
                        d.error(
                            t.location, "unknown input type `\(t.name)`",
                            hint: Suggestion.didYouMean(t.name, in: InputDecl.Kind.allCases.map(\.rawValue))
                                ?? "types: string, email, phone, code")
                    }
                }
                if let p = f.string("pattern", &d) {
                    pattern = RegexCache.compile(p.name)
                    if pattern == nil {
                        d.error(p.location, "invalid regular expression \"\(p.name)\" in input `\(ref.name)`")
                    }
                }
                secret = f.bool("secret", &d) ?? false
                prompt = f.string("prompt", &d)?.name
            }
            out.append(
                InputDecl(
                    name: ref.name, kind: kind, pattern: pattern, secret: secret, prompt: prompt, location: ref.location
                ))
        }
        return out
    }

    static func decodeState(_ ref: NameRef, _ node: YAMLNode, _ d: inout Diagnostics) -> State? {
        let what = "state `\(ref.name)`"
        guard let pairs = node.mapping else {
            d.error(node.location, "\(what) must be a mapping with one of: \(stateKinds.joined(separator: ", "))")
            return nil
        }
        let present = pairs.compactMap { $0.key.scalar }.filter { stateKinds.contains($0) }
        guard present.count == 1, let kind = present.first else {
            if present.isEmpty {
                let typo = pairs.compactMap { $0.key.scalar }.lazy.compactMap {
                    Suggestion.closest(to: $0, in: stateKinds)
                }.first
                d.error(
                    ref.location, "\(what) has no kind",
                    hint: typo.map { "did you mean `\($0)`?" }
                        ?? "give it exactly one of: \(stateKinds.joined(separator: ", "))")
            } else {
                d.error(
                    ref.location, "\(what) has several kinds (\(present.joined(separator: ", ")))",
                    hint: "split it into one state per kind")
            }
            return nil
        }
        let stateKind: State.Kind?
        switch kind {
        case "request": stateKind = decodeRequest(what, node, &d).map(State.Kind.request)
        case "input":
            guard let f = Fields(node, what: what, allowed: ["input", "goto", "invalid"], diagnostics: &d),
                let input = f.string("input", required: true, &d),
                let goto = f.string("goto", required: true, &d, hint: "say which state comes after the input")
            else { return nil }
            stateKind = .input(InputState(input: input, goto: goto, invalid: f.string("invalid", &d)))
        case "choice":
            guard let f = Fields(node, what: what, allowed: ["choice"], diagnostics: &d),
                let list = f.list("choice", &d)
            else { return nil }
            stateKind = .choice(decodeTransitions(list, what: what, &d))
        case "call":
            guard let f = Fields(node, what: what, allowed: ["call", "with", "on"], diagnostics: &d),
                let flow = f.string("call", required: true, &d)
            else { return nil }
            var with: [(NameRef, Expr)] = []
            for (arg, value) in f.map("with", &d) ?? [] {
                if let e = ExprReader.value(value, what: "`with.\(arg.name)`", &d) { with.append((arg, e)) }
            }
            let transitions = f.list("on", &d).map { decodeTransitions($0, what: what, &d) } ?? []
            if f.missing("on") {
                d.error(
                    node.location, "\(what) is missing the required key `on`",
                    hint: "list transitions on `outcome`, e.g. `- when: success` / `goto: next`")
            }
            stateKind = .call(CallState(flow: flow, with: with, transitions: transitions))
        case "wait":
            guard let f = Fields(node, what: what, allowed: ["wait", "goto"], diagnostics: &d),
                let w = f.require("wait", &d),
                let duration = ExprReader.expression(w, what: "`wait`", &d),
                let goto = f.string("goto", required: true, &d)
            else { return nil }
            stateKind = .wait(WaitState(duration: duration, goto: goto))
        default:
            guard
                let f = Fields(
                    node, what: what, allowed: ["end", "success", "skip", "reason", "outputs"], diagnostics: &d),
                let outcome = f.string("end", required: true, &d)
            else { return nil }
            if Flow.reservedOutcomes.contains(outcome.name) {
                d.error(
                    outcome.location, "`\(outcome.name)` is a reserved outcome name",
                    hint:
                        "FlowSpec uses `unhandled` and `error` for runs that did not reach an end state; pick another name"
                )
            }
            let success = f.bool("success", &d)
            let skip = f.bool("skip", &d) ?? false
            if skip, success == true, let at = f["success"]?.location {
                d.error(
                    at, "\(what) has `skip: true` and `success: true`",
                    hint:
                        "a skipped end means the promise was not checked, so it cannot be a success; remove `success: true`"
                )
            } else if !skip, f.missing("success") {
                d.error(
                    node.location, "\(what) is missing the required key `success`",
                    hint:
                        "say whether `\(outcome.name)` is a success: `success: true` or `success: false` (or `skip: true` when reaching it means nothing could be checked)"
                )
            }
            let reason = f["reason"].flatMap { ExprReader.template($0, what: "`reason`", &d) }
            var outputs: [(String, Expr)] = []
            for (out, value) in f.map("outputs", &d) ?? [] {
                if let e = ExprReader.value(value, what: "output `\(out.name)`", &d) { outputs.append((out.name, e)) }
            }
            stateKind = .end(
                EndState(outcome: outcome.name, success: success ?? false, skip: skip, reason: reason, outputs: outputs)
            )
        }
        return stateKind.map { State(name: ref.name, location: ref.location, kind: $0) }
    }

    static func decodeRequest(_ what: String, _ node: YAMLNode, _ d: inout Diagnostics) -> RequestState? {
        guard
            let f = Fields(
                node, what: what, allowed: ["request", "session", "answers", "on", "unreachable"], diagnostics: &d),
            let requestNode = f.require("request", &d),
            let r = Fields(
                requestNode, what: "the request of \(what)",
                allowed: ["method", "path", "url", "query", "headers", "json", "form"], diagnostics: &d)
        else { return nil }
        var method = "GET"
        if let m = r.string("method", &d) {
            method = m.name.uppercased()
            if !methods.contains(method) {
                d.error(
                    m.location, "unknown HTTP method `\(m.name)`",
                    hint: "use one of " + methods.sorted().joined(separator: ", "))
            }
        }
        let path = r["path"].flatMap { ExprReader.template($0, what: "`path`", &d) }
        let url = r["url"].flatMap { ExprReader.template($0, what: "`url`", &d) }
        let both = r.has("path") && r.has("url"), neither = r.missing("path") && r.missing("url")
        if both || neither {
            d.error(
                requestNode.location,
                r.has("path")
                    ? "the request of \(what) has both `path` and `url`"
                    : "the request of \(what) needs a `path` (or a full `url`)",
                hint: "use `path: /api/...` with `defaults.base_url`, or `url:` for a full address")
        }
        if let path, case .text(let first)? = path.parts.first, !first.hasPrefix("/") {
            d.error(
                path.location, "`path` must start with `/`, found \"\(path.source)\"", hint: "write `/\(path.source)`")
        }
        var body = RequestBody.none
        if r.has("json"), r.has("form") {
            d.error(requestNode.location, "the request of \(what) has both `json` and `form`; send one body")
        }
        if let json = r["json"] { body = .json(ExprReader.templateValue(json, &d)) }
        if r.has("form") { body = .form(templateMap(r, "form", &d)) }
        if body.isPresent, method == "GET" || method == "HEAD" {
            d.warning(requestNode.location, "a \(method) request with a body; most servers ignore it")
        }
        var sessionRef = f.string("session", &d)
        let optOut = sessionRef?.name == "none"
        if optOut { sessionRef = nil }
        guard let onList = f.list("on", &d) else {
            if f.missing("on") {
                d.error(
                    node.location, "\(what) is missing the required key `on`",
                    hint: "list what to do for each response, e.g. `- when: status == 200` / `goto: done`")
            }
            return nil
        }
        var request = RequestState(
            method: method, path: path, url: url, query: templateMap(r, "query", &d),
            headers: templateMap(r, "headers", &d),
            body: body, session: sessionRef, sessionOptOut: optOut,
            transitions: decodeTransitions(onList, what: what, &d), unreachable: f.string("unreachable", &d))
        if let node = f["answers"] {
            request.answers = statuses(node, what: "`answers` in \(what)", &d)
            request.answersLocation = f.keyLocation("answers")
            if optOut, let at = request.answersLocation {
                d.error(
                    at,
                    "\(what) has `answers:` and `session: none`; `answers:` only tells a session which statuses are not an expired token",
                    hint: "remove `answers:`, or send the request through a session")
            }
        }
        return request
    }

    /// A list of HTTP statuses (`[401, 403]`), each a whole number from 100 to 599, without repeats.
    static func statuses(_ node: YAMLNode, what: String, _ d: inout Diagnostics) -> [Int] {
        guard let items = node.sequence else {
            d.error(
                node.location, "\(what) must be a list of HTTP statuses, found \(node.kindName)",
                hint: "e.g. `answers: [401]`")
            return []
        }
        if items.isEmpty {
            d.error(
                node.location, "\(what) is empty",
                hint: "list the statuses that are an answer, e.g. `answers: [401]`, or remove it")
        }
        var out: [Int] = []
        for item in items {
            guard case .number(let n) = item.json, !item.isQuoted, n == n.rounded(), n >= 100, n <= 599 else {
                let found = item.scalar.map { item.isQuoted ? "the quoted text \"\($0)\"" : "`\($0)`" } ?? item.kindName
                d.error(
                    item.location,
                    "\(what): each entry must be an HTTP status, a whole number from 100 to 599, found \(found)",
                    hint: item.isQuoted ? "remove the quotes" : "e.g. `answers: [401]`")
                continue
            }
            if out.contains(Int(n)) {
                d.warning(item.location, "\(what) lists \(Int(n)) twice")
            } else {
                out.append(Int(n))
            }
        }
        return out
    }

    static func templateMap(_ f: Fields, _ key: String, _ d: inout Diagnostics) -> [(String, Template)] {
        var out: [(String, Template)] = []
        for (name, value) in f.map(key, &d) ?? [] {
            if value.mapping != nil || value.sequence != nil {
                d.error(value.location, "`\(key).\(name.name)` must be a single value, found \(value.kindName)")
                continue
            }
            if let t = ExprReader.template(value, what: "`\(key).\(name.name)`", &d) { out.append((name.name, t)) }
        }
        return out
    }
}

extension RequestBody {
    var isPresent: Bool { if case .none = self { return false } else { return true } }
}
