import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// Turns a scenario file's YAML into a `Scenario`, checking it against the loaded flows: unknown flows,
/// states, inputs and keys are reported with positions before anything runs.
package enum ScenarioDecoder {
    /// The keys each part takes: the format's own lists, which the schema is built from too.
    static let topKeys = ScenarioFormat.topKeys
    static let stepKeys = ScenarioFormat.stepKeys
    static let expectKeys = ScenarioFormat.expectKeys

    package static func decode(_ root: YAMLNode, file: String, specs: SpecSet, _ d: inout Diagnostics) -> Scenario? {
        guard let f = Fields(root, what: "a scenario", allowed: topKeys, diagnostics: &d) else { return nil }
        let name = f.string("scenario", required: true, &d)
        var tags: [String] = []
        for item in f.list("tags", &d) ?? [] {
            if let t = item.scalar {
                tags.append(t)
            } else {
                d.error(item.location, "tags are single words, found \(item.kindName)")
            }
        }
        let live = f.bool("live", &d) ?? false
        let inputs = decodeInputs(f["inputs"], &d)
        let store = decodeStore(f["store"], &d)
        var vars: [String: JSONValue] = [:]
        for (ref, node) in f.map("vars", &d) ?? [] { vars[ref.name] = node.json }
        var clock = VirtualTime.defaultStart
        if let c = f["clock"] {
            if case .number(let n) = c.json {
                clock = n
            } else {
                d.error(c.location, "`clock` is the virtual clock's start in Unix seconds, e.g. 1700000000")
            }
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
                d.error(
                    root.location, "the scenario states no expectations",
                    hint: "add `expect:` with at least `outcome:` — a scenario that expects nothing cannot fail")
            }
            let step = Scenario.RunStep(
                flow: flow, inputs: ScenarioInputs(), parallel: 1, expect: e, location: flow.location)
            refuseAtMost(e, in: "a scenario with one `flow:`", &d)
            steps = [.run(step)]
            check(step, specs: specs, scenarioInputs: inputs, &d)
            checkInputNames(
                inputs.names, node: f["inputs"], flows: specs.flows[flow.name].map { [$0] } ?? [], specs: specs, &d)
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
                        checkInputNames(
                            r.inputs.names, node: item.mapping?.first { $0.key.scalar == "inputs" }?.value,
                            flows: specs.flows[r.flow.name].map { [$0] } ?? [], specs: specs, &d)
                    }
                    steps.append(step)
                }
            }
            let stepFlows = steps.compactMap { step -> Flow? in
                if case .run(let r) = step { return specs.flows[r.flow.name] } else { return nil }
            }
            checkInputNames(inputs.names, node: f["inputs"], flows: stepFlows, specs: specs, &d)
            expect = f["expect"].flatMap { decodeExpectation($0, &d) }
            refuseAtMost(expect, in: "the scenario's own `expect:` (checked after the last step)", &d)
            checkRequestExpectations(expect, flows: stepFlows.map(\.name), specs: specs, &d)
            let anyExpect =
                expect != nil
                || steps.contains { if case .run(let r) = $0 { return r.expect != nil } else { return false } }
            if !anyExpect {
                d.error(
                    root.location, "the scenario states no expectations",
                    hint: "add `expect:` to a step or to the scenario")
            }
        } else {
            d.error(root.location, "a scenario needs `flow:` (one flow) or `steps:` (a sequence)")
        }
        if live {
            if f.has("exchanges") {
                d.error(
                    f.keyLocation("exchanges")!,
                    "a live scenario talks to a real backend; it has no scripted `exchanges`",
                    hint: "remove `live: true` to script the backend, or remove `exchanges:`")
            }
            if f.has("clock") {
                d.error(
                    f.keyLocation("clock")!, "a live scenario runs on the real clock; `clock` is for scripted scenarios"
                )
            }
        } else {
            for step in steps {
                guard case .command(_, let location) = step else { continue }
                d.error(
                    location, "a `command:` step acts on a real backend's world; a scripted scenario is self-contained",
                    hint: "add `live: true`, or script what the command would change as the exchanges' answers")
            }
        }
        guard let name else { return nil }
        var stepInputs = [inputs]
        for step in steps {
            switch step {
            case .run(let r): stepInputs.append(r.inputs)
            // The variables a command reads are needed like an input's: a live scenario without them is skipped.
            case .command(let t, _): stepInputs.append(ScenarioInputs(commands: ["command": t]))
            default: break
            }
        }
        let required = RequiredVars.of(
            flows: steps.compactMap { if case .run(let r) = $0 { return r.flow.name } else { return nil } },
            inputs: stepInputs, specs: specs
        )
        .union(expectations(steps, expect).flatMap(\.templateVarsReads)).subtracting(vars.keys)
        var scenario = Scenario(
            name: name.name, file: file, location: root.location, tags: tags, live: live,
            requiredVars: required.sorted(),
            steps: steps, inputs: inputs, store: store,
            vars: vars, clockStart: clock, exchanges: exchanges, anyOrder: anyOrder, expect: expect)
        scenario.fileSecrets = Redactor.secrets { scenario.registerFileSecrets(in: $0) }
        return scenario
    }

    /// Every expectation of a scenario: its steps' and its own.
    static func expectations(_ steps: [Scenario.Step], _ own: Expectation?) -> [Expectation] {
        steps.compactMap { if case .run(let r) = $0 { return r.expect } else { return nil } } + (own.map { [$0] } ?? [])
    }

    /// Input values are text templates that may read run variables (`${vars.staff_email}`); a list gives
    /// successive answers; `{ command: "…" }` takes the value from a shell command when the flow asks. A list may
    /// end with a command — `["000000", { command: … }]` is "a wrong code, then the one that was sent" — since the
    /// given values are handed out first and the command answers every later ask.
    package static func decodeInputs(_ node: YAMLNode?, _ d: inout Diagnostics) -> ScenarioInputs {
        guard let node else { return ScenarioInputs() }
        var out = ScenarioInputs()
        func template(_ item: YAMLNode, _ name: String) -> Template? {
            guard item.scalar != nil else {
                d.error(item.location, "input values are text, found \(item.kindName)")
                return nil
            }
            // Read exactly as `flowspec exec --input` reads its values.
            return InputTemplate.parse(item.scalar ?? "", at: item.textLocation, name: name, &d)
        }
        func command(_ value: YAMLNode, _ name: String) -> Template? {
            guard let f = Fields(value, what: "input `\(name)`", allowed: ["command"], diagnostics: &d),
                let command = f.require(
                    "command", &d, hint: "write `\(name): { command: \"…\" }` to take the value from a shell command")
            else { return nil }
            return template(command, name)
        }
        for (ref, value) in Fields.pairs(of: node, what: "`inputs`", &d) ?? [] {
            if var items = value.sequence {
                if let last = items.last, last.mapping != nil {
                    items.removeLast()
                    out.commands[ref.name] = command(last, ref.name)
                }
                for item in items where item.mapping != nil {
                    d.error(
                        item.location, "a `{ command: … }` of input `\(ref.name)` must be the list's last item",
                        hint: "the given values are used first, in order, and the command answers every ask after them")
                }
                out.values[ref.name] = items.filter { $0.mapping == nil }.compactMap { template($0, ref.name) }
            } else if value.mapping != nil {
                out.commands[ref.name] = command(value, ref.name)
            } else if value.scalar != nil {
                out.values[ref.name] = template(value, ref.name).map { [$0] } ?? []
            } else {
                d.error(
                    value.location,
                    "input `\(ref.name)` must be a value, a list of successive values, or `{ command: … }`")
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
                    d.error(
                        values.location, "store values live in a namespace: `\(ns.name)` needs one above it",
                        hint: "write `{ staff: { \(ns.name): ... } }` or `staff.\(ns.name): ...`")
                }
                continue
            }
            var namespace: [String: JSONValue] = out[ns.name] ?? [:]
            for (key, value) in Fields.pairs(of: values, what: "`store.\(ns.name)`", &d) ?? [] {
                namespace[key.name] = value.json
            }
            out[ns.name] = namespace
        }
        return out
    }

    static func decodeStep(_ node: YAMLNode, _ d: inout Diagnostics) -> Scenario.Step? {
        guard let f = Fields(node, what: "a step", allowed: stepKeys, diagnostics: &d) else { return nil }
        let kinds = ["run", "wait", "relaunch", "set_store", "command"].filter { f.has($0) }
        guard kinds.count == 1 else {
            d.error(
                node.location,
                kinds.isEmpty
                    ? "a step needs one of `run:`, `wait:`, `relaunch: true`, `set_store:` or `command:`"
                    : "a step has several kinds (\(kinds.joined(separator: ", "))); give each its own step")
            return nil
        }
        switch kinds[0] {
        case "wait":
            for extra in ["inputs", "expect", "parallel"] where f.has(extra) {
                d.error(f.keyLocation(extra)!, "`\(extra)` belongs to a `run:` step, not a `wait:` step")
            }
            guard let w = f["wait"], let wait = ScenarioWait.decode(w, step: node.location, &d) else { return nil }
            return .wait(wait)
        case "set_store":
            for extra in ["inputs", "expect", "parallel"] where f.has(extra) {
                d.error(f.keyLocation(extra)!, "`\(extra)` belongs to a `run:` step, not a `set_store:` step")
            }
            return .setStore(decodeStore(f["set_store"], &d), location: node.location)
        case "relaunch":
            if f.bool("relaunch", &d) != true { d.error(f["relaunch"]!.location, "write `relaunch: true`") }
            return .relaunch(location: node.location)
        case "command":
            for extra in ["inputs", "expect", "parallel"] where f.has(extra) {
                d.error(f.keyLocation(extra)!, "`\(extra)` belongs to a `run:` step, not a `command:` step")
            }
            guard let value = f["command"] else { return nil }
            guard let text = value.scalar, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                d.error(value.location, "`command:` needs the shell command to run, as text")
                return nil
            }
            guard let template = InputTemplate.parse(text, at: value.location, place: "a `command:` step", &d) else {
                return nil
            }
            return .command(template, location: node.location)
        default:
            guard let flow = f.string("run", required: true, &d) else { return nil }
            let parallel = f.int("parallel", &d, range: 1...1000) ?? 1
            let expect = f["expect"].flatMap { decodeExpectation($0, &d) }
            if parallel == 1 { refuseAtMost(expect, in: "a step without `parallel:`", &d) }
            return .run(
                Scenario.RunStep(
                    flow: flow, inputs: decodeInputs(f["inputs"], &d), parallel: parallel, expect: expect,
                    location: node.location))
        }
    }

    /// `at_most` and `same_outputs` compare the copies of a `parallel:` step; anywhere else there is one run.
    static func refuseAtMost(_ e: Expectation?, in place: String, _ d: inout Diagnostics) {
        guard let e else { return }
        if !e.atMost.isEmpty {
            d.error(
                e.location, "`at_most` counts the copies of a `parallel:` step; \(place) has one run",
                hint: "use `outcome:` here, or add `parallel: N` to the step")
        }
        if !e.sameOutputs.isEmpty {
            d.error(
                e.location, "`same_outputs` compares the copies of a `parallel:` step; \(place) has one run",
                hint: "use `outputs:` here, or add `parallel: N` to the step")
        }
    }
}
