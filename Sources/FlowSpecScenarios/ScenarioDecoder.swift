import Foundation
import FlowSpecLanguage
import FlowSpecRuntime

/// Turns a scenario file's YAML into a `Scenario`, checking it against the loaded flows: unknown flows,
/// states, inputs and keys are reported with positions before anything runs.
public enum ScenarioDecoder {
    static let topKeys = ["scenario", "tags", "live", "flow", "steps", "inputs", "store", "vars", "clock", "exchanges", "exchange_order", "expect"]
    static let stepKeys = ["run", "inputs", "expect", "parallel", "wait", "relaunch", "set_store"]
    static let expectKeys = ["outcome", "success", "path", "variables", "outputs", "reason", "error", "store", "store_present", "store_absent", "request_count", "requests", "at_most", "same_outputs"]

    public static func decode(_ root: YAMLNode, file: String, specs: SpecSet, _ d: inout Diagnostics) -> Scenario? {
        guard let f = Fields(root, what: "a scenario", allowed: topKeys, diagnostics: &d) else { return nil }
        let name = f.string("scenario", required: true, &d)
        var tags: [String] = []
        for item in f.list("tags", &d) ?? [] {
            if let t = item.scalar { tags.append(t) } else { d.error(item.location, "tags are single words, found \(item.kindName)") }
        }
        let live = f.bool("live", &d) ?? false
        let inputs = decodeInputs(f["inputs"], &d)
        let store = decodeStore(f["store"], &d)
        var vars: [String: JSONValue] = [:]
        for (ref, node) in f.map("vars", &d) ?? [] { vars[ref.name] = node.json }
        var clock = VirtualTime.defaultStart
        if let c = f["clock"] {
            if case .number(let n) = c.json { clock = n } else { d.error(c.location, "`clock` is the virtual clock's start in Unix seconds, e.g. 1700000000") }
        }
        var anyOrder = false
        if let order = f.string("exchange_order", &d) {
            switch order.name {
            case "strict": anyOrder = false
            case "any": anyOrder = true
            default: d.error(order.location, "`exchange_order` is `strict` or `any`, found `\(order.name)`")
            }
        }
        let exchanges = (f.list("exchanges", &d) ?? []).compactMap { decodeExchange($0, &d) }

        var steps: [Scenario.Step] = []
        var expect: Expectation?
        if f.has("flow"), f.has("steps") {
            d.error(root.location, "a scenario has either `flow:` (one flow) or `steps:` (a sequence), not both")
        } else if let flow = f.string("flow", &d) {
            let e = f["expect"].flatMap { decodeExpectation($0, &d) }
            if e == nil, !f.has("expect") {
                d.error(root.location, "the scenario states no expectations", hint: "add `expect:` with at least `outcome:` — a scenario that expects nothing cannot fail")
            }
            let step = Scenario.RunStep(flow: flow, inputs: ScenarioInputs(), parallel: 1, expect: e, location: flow.location)
            refuseAtMost(e, in: "a scenario with one `flow:`", &d)
            steps = [.run(step)]
            check(step, specs: specs, scenarioInputs: inputs, &d)
            checkInputNames(inputs.names, node: f["inputs"], flows: specs.flows[flow.name].map { [$0] } ?? [], specs: specs, &d)
            checkAlwaysReadInputs(step, given: inputs.names, specs: specs, &d)
        } else if let list = f.list("steps", &d) {
            if list.isEmpty { d.error(f["steps"]!.location, "`steps` is empty") }
            // Inputs given so far: a step's inputs add to the scenario's and stay for the steps after it.
            var given = inputs.names
            for item in list {
                if let step = decodeStep(item, &d) {
                    if case .run(let r) = step {
                        given.formUnion(r.inputs.names)
                        checkAlwaysReadInputs(r, given: given, specs: specs, &d)
                        check(r, specs: specs, scenarioInputs: inputs, &d)
                        checkInputNames(r.inputs.names, node: item.mapping?.first { $0.key.scalar == "inputs" }?.value,
                                        flows: specs.flows[r.flow.name].map { [$0] } ?? [], specs: specs, &d)
                    }
                    steps.append(step)
                }
            }
            let stepFlows = steps.compactMap { step -> Flow? in if case .run(let r) = step { return specs.flows[r.flow.name] } else { return nil } }
            checkInputNames(inputs.names, node: f["inputs"], flows: stepFlows, specs: specs, &d)
            expect = f["expect"].flatMap { decodeExpectation($0, &d) }
            refuseAtMost(expect, in: "the scenario's own `expect:` (checked after the last step)", &d)
            let anyExpect = expect != nil || steps.contains { if case .run(let r) = $0 { return r.expect != nil } else { return false } }
            if !anyExpect { d.error(root.location, "the scenario states no expectations", hint: "add `expect:` to a step or to the scenario") }
        } else {
            d.error(root.location, "a scenario needs `flow:` (one flow) or `steps:` (a sequence)")
        }
        if live {
            if f.has("exchanges") {
                d.error(f.keyLocation("exchanges")!, "a live scenario talks to a real backend; it has no scripted `exchanges`",
                        hint: "remove `live: true` to script the backend, or remove `exchanges:`")
            }
            if f.has("clock") { d.error(f.keyLocation("clock")!, "a live scenario runs on the real clock; `clock` is for scripted scenarios") }
        }
        guard let name else { return nil }
        var stepInputs = [inputs]
        for step in steps { if case .run(let r) = step { stepInputs.append(r.inputs) } }
        let required = RequiredVars.of(flows: steps.compactMap { if case .run(let r) = $0 { return r.flow.name } else { return nil } },
                                       inputs: stepInputs, specs: specs).subtracting(vars.keys)
        var scenario = Scenario(name: name.name, file: file, location: root.location, tags: tags, live: live, requiredVars: required.sorted(),
                                steps: steps, inputs: inputs, store: store,
                                vars: vars, clockStart: clock, exchanges: exchanges, anyOrder: anyOrder, expect: expect)
        scenario.fileSecrets = Redactor.secrets { scenario.registerFileSecrets(in: $0) }
        return scenario
    }

    /// Inputs that `flow`, the flows it calls and its sessions' refresh flows can read.
    public static func reachableInputs(_ flow: Flow, specs: SpecSet) -> Set<String> {
        Set(specs.reachable(from: [flow.name]).flows.flatMap { $0.inputs.map(\.name) })
    }

    static func checkInputNames(_ given: Set<String>, node: YAMLNode?, flows: [Flow], specs: SpecSet, _ d: inout Diagnostics) {
        guard let node, !flows.isEmpty else { return }
        let known = flows.reduce(into: Set<String>()) { $0.formUnion(reachableInputs($1, specs: specs)) }
        for (ref, _) in Fields.pairs(of: node, what: "`inputs`", &d) ?? [] where !known.contains(ref.name) {
            let names = flows.map { "`\($0.name)`" }.joined(separator: ", ")
            d.error(ref.location, "no flow this scenario runs (\(names)) reads an input named `\(ref.name)`",
                    hint: Suggestion.didYouMean(ref.name, in: known) ?? "its inputs: " + known.sorted().joined(separator: ", "))
        }
    }

    /// A flow that reads an input on every path cannot run without it: say so now, once, instead of a run-time
    /// "missing input" followed by every exchange it then left unused.
    static func checkAlwaysReadInputs(_ step: Scenario.RunStep, given: Set<String>, specs: SpecSet, _ d: inout Diagnostics) {
        guard let flow = specs.flows[step.flow.name] else { return }
        // A given name the flow does not read (`pasword`) already has its did-you-mean error: the input it
        // was meant to be is not reported missing as well.
        let known = reachableInputs(flow, specs: specs)
        let typos = given.subtracting(known)
        let missing = MustReadInputs.of(step.flow.name, specs: specs).subtracting(given)
            .filter { name in !typos.contains { Suggestion.closest(to: $0, in: [name]) != nil } }.sorted()
        guard !missing.isEmpty else { return }
        let names = missing.map { "`\($0)`" }.joined(separator: ", ")
        d.error(step.location, "flow `\(step.flow.name)` reads the input\(missing.count == 1 ? "" : "s") \(names) on every path, and this scenario does not give \(missing.count == 1 ? "it" : "them")",
                hint: "add \(missing.map { "`\($0): …`" }.joined(separator: ", ")) under `inputs:` (a list gives successive answers; `{ command: \"…\" }` fetches a value)")
    }

    static func check(_ step: Scenario.RunStep, specs: SpecSet, scenarioInputs: ScenarioInputs, _ d: inout Diagnostics) {
        guard let flow = specs.flows[step.flow.name] else {
            d.error(step.flow.location, "unknown flow `\(step.flow.name)`",
                    hint: Suggestion.didYouMean(step.flow.name, in: specs.flows.keys) ?? "flows are named `<system>.<file stem>`; is the flows folder loaded (--flows)?")
            return
        }
        // A state that exists but did not load (a misspelt kind) has its own error: one mistake, one error.
        if let expect = step.expect, let path = expect.path {
            for ref in path where flow.states[ref.name] == nil && !flow.brokenStates.contains(ref.name) {
                d.error(ref.location, "flow `\(flow.name)` has no state `\(ref.name)`",
                        hint: Suggestion.didYouMean(ref.name, in: flow.stateOrder) ?? "its states: " + flow.stateOrder.joined(separator: ", "))
            }
        }
        if let expect = step.expect, !expect.variables.isEmpty, flow.brokenStates.isEmpty {
            var settable = Set(flow.variables.map(\.0)).union(["input_error"])
            for name in flow.stateOrder { for t in flow.states[name]!.transitions { settable.formUnion(t.set.map(\.0)) } }
            for (name, _) in expect.variables where !settable.contains(name) {
                d.error(expect.location, "flow `\(flow.name)` never sets a variable named `\(name)`",
                        hint: Suggestion.didYouMean(name, in: settable) ?? "its variables: " + settable.sorted().joined(separator: ", "))
            }
        }
        if let outcome = step.expect?.outcome, !specs.reachable(from: [flow.name]).flows.contains(where: { !$0.brokenStates.isEmpty }) {
            let outcomes = FlowOutcomes.possible(flow, specs: specs)
            if !outcomes.contains(outcome) {
                d.error(step.expect!.location, "flow `\(flow.name)` can never end with outcome `\(outcome)`",
                        hint: Suggestion.didYouMean(outcome, in: outcomes) ?? "its outcomes: " + outcomes.sorted().joined(separator: ", "))
            }
        }
    }

    /// Input values are text templates that may read run variables (`${vars.staff_email}`); a list gives
    /// successive answers; `{ command: "…" }` takes the value from a shell command when the flow asks.
    public static func decodeInputs(_ node: YAMLNode?, _ d: inout Diagnostics) -> ScenarioInputs {
        guard let node else { return ScenarioInputs() }
        var out = ScenarioInputs()
        func template(_ item: YAMLNode, _ name: String) -> Template? {
            guard item.scalar != nil else {
                d.error(item.location, "input values are text, found \(item.kindName)")
                return nil
            }
            guard let t = ExprReader.template(item, what: "input `\(name)`", &d) else { return nil }
            for e in t.expressions {
                let foreign = e.roots.filter { $0.0 != .vars }
                for (root, location) in foreign {
                    d.error(location, "scenario inputs can read only run variables, like `${vars.staff_email}`; found `\(root.rawValue)`")
                }
                // Function arguments (`${totp(vars.totp_secret)}`) are checked as in flows.
                if foreign.isEmpty { TypeChecker.check(e, in: ExprContext(place: "a scenario input", declaredInputs: []), into: &d) }
            }
            return t
        }
        for (ref, value) in Fields.pairs(of: node, what: "`inputs`", &d) ?? [] {
            if let items = value.sequence {
                out.values[ref.name] = items.compactMap { template($0, ref.name) }
            } else if value.mapping != nil {
                guard let f = Fields(value, what: "input `\(ref.name)`", allowed: ["command"], diagnostics: &d),
                      let command = f.require("command", &d, hint: "write `\(ref.name): { command: \"…\" }` to take the value from a shell command")
                else { continue }
                out.commands[ref.name] = template(command, ref.name)
            } else if value.scalar != nil {
                out.values[ref.name] = template(value, ref.name).map { [$0] } ?? []
            } else {
                d.error(value.location, "input `\(ref.name)` must be a value, a list of successive values, or `{ command: … }`")
            }
        }
        return out
    }

    /// Namespaces of keys, `{ staff: { access_token: … } }`; `staff.access_token: …` is accepted as shorthand.
    static func decodeStore(_ node: YAMLNode?, _ d: inout Diagnostics) -> TokenStore.Snapshot {
        guard let node else { return [:] }
        var out: TokenStore.Snapshot = [:]
        for (ns, values) in Fields.pairs(of: node, what: "`store`", &d) ?? [] {
            guard values.mapping != nil else {
                let parts = ns.name.split(separator: ".", maxSplits: 1).map(String.init)
                if parts.count == 2 {
                    out[parts[0], default: [:]][parts[1]] = values.json
                } else {
                    d.error(values.location, "store values live in a namespace: `\(ns.name)` needs one above it",
                            hint: "write `{ staff: { \(ns.name): ... } }` or `staff.\(ns.name): ...`")
                }
                continue
            }
            var namespace: [String: JSONValue] = out[ns.name] ?? [:]
            for (key, value) in Fields.pairs(of: values, what: "`store.\(ns.name)`", &d) ?? [] { namespace[key.name] = value.json }
            out[ns.name] = namespace
        }
        return out
    }

    static func decodeStep(_ node: YAMLNode, _ d: inout Diagnostics) -> Scenario.Step? {
        guard let f = Fields(node, what: "a step", allowed: stepKeys, diagnostics: &d) else { return nil }
        let kinds = ["run", "wait", "relaunch", "set_store"].filter { f.has($0) }
        guard kinds.count == 1 else {
            d.error(node.location, kinds.isEmpty ? "a step needs one of `run:`, `wait:`, `relaunch: true` or `set_store:`" : "a step has several kinds (\(kinds.joined(separator: ", "))); give each its own step")
            return nil
        }
        switch kinds[0] {
        case "wait":
            for extra in ["inputs", "expect", "parallel"] where f.has(extra) { d.error(f.keyLocation(extra)!, "`\(extra)` belongs to a `run:` step, not a `wait:` step") }
            guard let w = f["wait"], let expr = ExprReader.expression(w, what: "`wait`", &d) else { return nil }
            guard case .success(let value) = Result(catching: { () throws(EvaluationError) -> JSONValue in try Evaluator.evaluate(expr, Environment()) }),
                  case .number(let seconds) = value, seconds >= 0 else {
                d.error(w.location, "`wait` needs a duration such as `16m`, `30s` or `1h`")
                return nil
            }
            return .wait(seconds: seconds, location: node.location)
        case "set_store":
            for extra in ["inputs", "expect", "parallel"] where f.has(extra) { d.error(f.keyLocation(extra)!, "`\(extra)` belongs to a `run:` step, not a `set_store:` step") }
            return .setStore(decodeStore(f["set_store"], &d), location: node.location)
        case "relaunch":
            if f.bool("relaunch", &d) != true { d.error(f["relaunch"]!.location, "write `relaunch: true`") }
            return .relaunch(location: node.location)
        default:
            guard let flow = f.string("run", required: true, &d) else { return nil }
            let parallel = f.int("parallel", &d, range: 1...1000) ?? 1
            let expect = f["expect"].flatMap { decodeExpectation($0, &d) }
            if parallel == 1 { refuseAtMost(expect, in: "a step without `parallel:`", &d) }
            return .run(Scenario.RunStep(flow: flow, inputs: decodeInputs(f["inputs"], &d), parallel: parallel, expect: expect, location: node.location))
        }
    }

    /// `at_most` and `same_outputs` compare the copies of a `parallel:` step; anywhere else there is one run.
    static func refuseAtMost(_ e: Expectation?, in place: String, _ d: inout Diagnostics) {
        guard let e else { return }
        if !e.atMost.isEmpty {
            d.error(e.location, "`at_most` counts the copies of a `parallel:` step; \(place) has one run", hint: "use `outcome:` here, or add `parallel: N` to the step")
        }
        if !e.sameOutputs.isEmpty {
            d.error(e.location, "`same_outputs` compares the copies of a `parallel:` step; \(place) has one run", hint: "use `outputs:` here, or add `parallel: N` to the step")
        }
    }

    static func decodeExchange(_ node: YAMLNode, _ d: inout Diagnostics) -> Exchange? {
        guard let f = Fields(node, what: "an exchange", allowed: ["request", "response", "times", "concurrent"], diagnostics: &d) else { return nil }
        guard let requestNode = f.require("request", &d, hint: "what request this exchange answers: `request: { method: POST, path: /api/... }`"),
              let r = Fields(requestNode, what: "`request` of an exchange", allowed: ["method", "path", "query", "headers", "headers_absent", "json", "form"], diagnostics: &d)
        else { return nil }
        var matcher = RequestMatcher()
        matcher.method = r.string("method", &d)?.name.uppercased()
        matcher.path = r.string("path", &d)?.name
        if let path = matcher.path, path.contains("?") {
            d.error(r["path"]!.location, "`path` is matched without its query string", hint: "move the query into `query: { … }`")
        }
        matcher.query = stringPairs(r, "query", &d)
        matcher.headers = stringPairs(r, "headers", &d)
        matcher.headersAbsent = (r.list("headers_absent", &d) ?? []).compactMap(\.scalar)
        matcher.json = r["json"]?.json
        if r.has("form") { matcher.form = stringPairs(r, "form", &d) }

        guard let responseNode = f.require("response", &d, hint: "what the backend answers: `response: { status: 200, json: { … } }`"),
              let s = Fields(responseNode, what: "`response` of an exchange", allowed: ["status", "headers", "json", "body", "fail"], diagnostics: &d)
        else { return nil }
        let response: Exchange.Response
        if let fail = s.string("fail", &d) {
            switch fail.name {
            case "refused": response = .fail(.refused)
            case "timeout": response = .fail(.timeout)
            default:
                d.error(fail.location, "`fail` is `refused` or `timeout`, found `\(fail.name)`")
                return nil
            }
        } else {
            let status = s.int("status", &d, range: 100...599) ?? 200
            var headers = stringPairs(s, "headers", &d)
            var body: [UInt8] = []
            if s.has("json"), s.has("body") { d.error(responseNode.location, "a response has `json` or `body`, not both") }
            if let json = s["json"] {
                body = Array(json.json.compactJSON.utf8)
                if let declared = headers.last(where: { $0.0.lowercased() == "content-type" })?.1 {
                    if !MediaType.isJSON(declared) {
                        d.warning(json.location, "`json` with `Content-Type: \(declared)`, which is not a JSON media type: the flow reads `body` as text",
                                  hint: "drop the header, or write the text in `body:`")
                    }
                } else {
                    headers.append(("Content-Type", "application/json"))
                }
            } else if let text = s.string("body", &d) {
                body = Array(text.name.utf8)
            }
            response = .reply(HTTPResponse(status: status, headers: headers, body: Data(body)))
        }
        let times = f.int("times", &d, range: 1...10_000) ?? 1
        let concurrent = f.bool("concurrent", &d) ?? false
        if concurrent, times < 2 { d.warning(f["concurrent"]!.location, "`concurrent: true` gathers `times` requests; with times: 1 it does nothing") }
        return Exchange(location: node.location, request: matcher, response: response, times: times, concurrent: concurrent)
    }

    static func stringPairs(_ f: Fields, _ key: String, _ d: inout Diagnostics) -> [(String, String)] {
        (f.map(key, &d) ?? []).compactMap { ref, node in
            guard let value = node.scalar else {
                d.error(node.location, "`\(key).\(ref.name)` must be a single value, found \(node.kindName)")
                return nil
            }
            return (ref.name, value)
        }
    }

    static func decodeExpectation(_ node: YAMLNode, _ d: inout Diagnostics) -> Expectation? {
        guard let f = Fields(node, what: "`expect`", allowed: expectKeys, diagnostics: &d) else { return nil }
        var e = Expectation(location: node.location)
        e.outcome = f.string("outcome", &d)?.name
        e.success = f.bool("success", &d)
        if let list = f.list("path", &d) {
            e.path = list.compactMap { item in
                guard let s = item.scalar else { d.error(item.location, "`path` lists state names"); return nil }
                return NameRef(s, at: item.textLocation)
            }
        }
        e.variables = (f.map("variables", &d) ?? []).map { ($0.0.name, $0.1.json) }
        e.outputs = (f.map("outputs", &d) ?? []).map { ($0.0.name, $0.1.json) }
        e.reason = f.string("reason", &d)?.name
        e.error = f.string("error", &d)?.name
        for (ref, value) in f.map("store", &d) ?? [] {
            guard let key = storeKey(ref.name, ref.location, &d, needsKey: true) else { continue }
            e.store.append((key, value.json))
        }
        e.storePresent = storeKeys(f, "store_present", &d)
        e.storeAbsent = storeKeys(f, "store_absent", &d)
        e.requestCount = f.int("request_count", &d, range: 0...1_000_000)
        for (outcome, node) in f.map("at_most", &d) ?? [] {
            if case .number(let n) = node.json, n == n.rounded(), n >= 0, n <= 1000 { e.atMost.append((outcome.name, Int(n))) }
            else { d.error(node.location, "`at_most: { \(outcome.name): N }` takes a number of copies from 0 to 1000, found `\(node.scalar ?? node.kindName)`") }
        }
        for item in f.list("same_outputs", &d) ?? [] {
            if let name = item.scalar { e.sameOutputs.append(name) } else { d.error(item.location, "`same_outputs` lists output names") }
        }
        for item in f.list("requests", &d) ?? [] {
            guard let r = Fields(item, what: "a request check", allowed: ["method", "path", "count", "headers", "headers_absent", "json"], diagnostics: &d) else { continue }
            var check = RequestCheck(location: item.location)
            check.method = r.string("method", &d)?.name.uppercased()
            check.path = r.string("path", &d)?.name
            check.count = r.int("count", &d, range: 0...1_000_000)
            check.headers = stringPairs(r, "headers", &d)
            check.headersAbsent = (r.list("headers_absent", &d) ?? []).compactMap(\.scalar)
            check.json = r["json"]?.json
            e.requests.append(check)
        }
        if f.keysInOrder.isEmpty { d.error(node.location, "`expect` is empty", hint: "state at least the outcome: `expect: { outcome: authenticated }`") }
        return e
    }

    static func storeKeys(_ f: Fields, _ key: String, _ d: inout Diagnostics) -> [StoreKey] {
        (f.list(key, &d) ?? []).compactMap { item in
            guard let s = item.scalar else { d.error(item.location, "`\(key)` lists `namespace.key` names"); return nil }
            return storeKey(s, item.location, &d, needsKey: false)
        }
    }

    static func storeKey(_ text: String, _ location: SourceLocation, _ d: inout Diagnostics, needsKey: Bool) -> StoreKey? {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2 { return StoreKey(namespace: parts[0], key: parts[1]) }
        if needsKey || parts.isEmpty {
            d.error(location, "store keys are written `namespace.key`, e.g. `staff.access_token`, found `\(text)`")
            return nil
        }
        return StoreKey(namespace: parts[0], key: nil)
    }
}

/// The outcomes a flow can end with: its end states, its sessions' failure outcomes, `unhandled` and `error`.
enum FlowOutcomes {
    static func possible(_ flow: Flow, specs: SpecSet) -> Set<String> {
        var out: Set<String> = Flow.reservedOutcomes
        var sessionNames = Set<String>()
        if let s = flow.session { sessionNames.insert(s.name) }
        for name in flow.stateOrder {
            switch flow.states[name]!.kind {
            case .end(let e): out.insert(e.outcome)
            case .request(let r): if let s = r.session { sessionNames.insert(s.name) }
            default: break
            }
        }
        for s in sessionNames { if let o = specs.sessions[s]?.refresh?.failureOutcome { out.insert(o) } }
        return out
    }
}
