import FlowSpecLanguage
import FlowSpecScenarios

/// One key of a promise beyond `source` and `requires` (`revokes_family`, `burst`, `access`, …): its shape, which
/// the decoder reads and the JSON Schema describes from this one definition.
struct ProbeOption: Sendable {
    enum Shape: Sendable {
        case boolean
        case integer(ClosedRange<Int>)
        /// A duration or seconds (`15m`, `"${vars.x}"`): evaluated against the run variables when the probe runs.
        case duration
        /// A whole number in the range, or a template over run variables giving one (a limit no document states).
        case count(ClosedRange<Int>)
        case word([String])
        case session
        case sessions
        case flow
        case flows
        /// A store key (`note_id`).
        case key
        /// A shell command (a template over run variables), run with the login's non-secret inputs in its environment.
        case command
        case statuses
        /// Inputs as in scenarios.
        case inputs
        /// `{ inputs: … }`: another account, logged in with the probe file's login flow.
        case account
        /// `[{ flow, inputs }]`: further login flows of the session.
        case logins
    }

    let key: String
    let shape: Shape
    let description: String
    var required = false

    init(_ key: String, _ shape: Shape, _ description: String, required: Bool = false) {
        self.key = key
        self.shape = shape
        self.description = description
        self.required = required
    }

    typealias F = SchemaFragment

    var schema: JSONValue {
        switch shape {
        case .boolean: F.boolean(description)
        case .integer(let range): F.integer(description, range)
        case .duration, .command: F.template(description)
        case .count(let range):
            .object([
                "description": .string(description),
                "oneOf": .array([
                    F.integer("A number.", range),
                    F.name("A template over run variables, e.g. \"${vars.login_code_max_attempts}\"."),
                ]),
            ])
        case .word(let words): F.oneOfWords(words, description)
        case .session, .flow, .key: F.name(description)
        case .sessions: F.list(description, of: F.name("A session name."))
        case .flows: F.list(description, of: F.name("A flow name."), minItems: 1)
        case .statuses: F.list(description, of: F.integer("A status.", 100...599), minItems: 1)
        case .inputs:
            F.map(description, of: F.anything("A value, a list of successive values, or `{ command: \"…\" }`."))
        case .account: F.ref("probeAccount", description)
        case .logins: F.list(description, of: F.ref("probeLogin", "A login flow and its inputs."))
        }
    }

    /// Reads this option's value, checking names against the loaded flows and sessions.
    func decode(_ node: YAMLNode, _ f: Fields, specs: SpecSet, _ d: inout Diagnostics) -> ProbeOptionValue? {
        switch shape {
        case .boolean: return f.bool(key, &d).map(ProbeOptionValue.boolean)
        case .integer(let range): return f.int(key, &d, range: range).map(ProbeOptionValue.integer)
        case .duration, .command: return ExprReader.template(node, what: "`\(key)`", &d).map(ProbeOptionValue.duration)
        case .count(let range):
            if case .number = node.json {
                return f.int(key, &d, range: range).map { .duration(Template.literal(String($0), at: node.location)) }
            }
            return ExprReader.template(node, what: "`\(key)`", &d).map(ProbeOptionValue.duration)
        case .word(let words):
            guard let word = f.string(key, &d) else { return nil }
            guard words.contains(word.name) else {
                d.error(
                    word.location,
                    "`\(key)` is \(words.map { "`\($0)`" }.joined(separator: " or ")), found `\(word.name)`")
                return nil
            }
            return .word(word.name)
        case .key: return f.string(key, &d).map { .names([$0]) }
        case .session, .flow:
            guard let name = f.string(key, &d) else { return nil }
            Self.check(
                name, shape == .session ? specs.sessions.keys.sorted() : specs.flows.keys.sorted(),
                what: shape == .session ? "session" : "flow", &d)
            return .names([name])
        case .sessions, .flows:
            var names: [NameRef] = []
            for item in f.list(key, &d) ?? [] {
                guard let text = item.scalar else {
                    d.error(item.location, "`\(key)` lists names, found \(item.kindName)"); continue
                }
                let name = NameRef(text, at: item.location)
                Self.check(
                    name, shape == .sessions ? specs.sessions.keys.sorted() : specs.flows.keys.sorted(),
                    what: shape == .sessions ? "session" : "flow", &d)
                names.append(name)
            }
            return .names(names)
        case .statuses:
            var statuses: [Int] = []
            for item in f.list(key, &d) ?? [] {
                guard let text = item.scalar, let status = Int(text), (100...599).contains(status) else {
                    d.error(item.location, "`\(key)` lists HTTP statuses, found `\(item.scalar ?? item.kindName)`");
                    continue
                }
                statuses.append(status)
            }
            return .statuses(statuses)
        case .inputs: return .inputs(ScenarioDecoder.decodeInputs(node, &d))
        case .account:
            guard let a = Fields(node, what: "`\(key)`", allowed: ["inputs"], diagnostics: &d) else { return nil }
            guard
                let inputs = a.require(
                    "inputs", &d,
                    hint: "the login inputs of the other account, e.g. `inputs: { email: \"${vars.second_email}\" }`")
            else { return nil }
            return .inputs(ScenarioDecoder.decodeInputs(inputs, &d))
        case .logins:
            var logins: [ProbeLogin] = []
            for item in f.list(key, &d) ?? [] {
                guard let l = Fields(item, what: "a login of `\(key)`", allowed: ["flow", "inputs"], diagnostics: &d),
                    let flow = l.string(
                        "flow", required: true, &d, hint: "the login flow, e.g. `flow: repairminder.staff-magic-link`")
                else { continue }
                Self.check(flow, specs.flows.keys.sorted(), what: "flow", &d)
                logins.append(ProbeLogin(flow: flow, inputs: ScenarioDecoder.decodeInputs(l["inputs"], &d)))
            }
            return .logins(logins)
        }
    }

    static func check(_ name: NameRef, _ known: [String], what: String, _ d: inout Diagnostics) {
        if !known.contains(name.name) {
            d.error(name.location, "unknown \(what) `\(name.name)`", hint: Suggestion.didYouMean(name.name, in: known))
        }
    }
}

extension ProbeOption.Shape: Equatable {}

/// A decoded option.
enum ProbeOptionValue: Sendable {
    case boolean(Bool)
    case integer(Int)
    case duration(Template)
    case word(String)
    case names([NameRef])
    case statuses([Int])
    case inputs(ScenarioInputs)
    case logins([ProbeLogin])
}

/// A login flow of the session and its inputs.
package struct ProbeLogin: Sendable {
    package var flow: NameRef
    package var inputs: ScenarioInputs
}
