import FlowSpecLanguage

/// What a scaffolded scenario knows at one point of a path: the response it scripts, the flow variables it can
/// compute, the token store it set up, the inputs it gives. Expressions are evaluated three-valued: a value
/// when everything they read is known, nil when anything is not (a variable set from an unknown expression,
/// a sub-flow's outputs, a run variable), so a guess is never presented as certain.
package struct ScaffoldWorld: Sendable {
    /// The virtual clock a scripted scenario starts at (ScenarioDecoder's default `clock:`).
    package static let defaultClock = VirtualTime.defaultStart

    package var status: Int?
    package var body: JSONValue = .null
    /// Response headers, lowercased names.
    package var headers: [String: String] = [:]
    package var variables: [String: JSONValue] = [:]
    /// The flow namespace's store: keys missing from it (and from `unknownStore`) are absent.
    package var store: [String: JSONValue] = [:]
    package var unknownStore: Set<String> = []
    package var inputs: [String: String] = [:]
    /// Run variables the scenario gives in `vars:`.
    package var vars: [String: JSONValue] = [:]
    package var now = ScaffoldWorld.defaultClock
    /// How the last `call` ended.
    package var call: (outcome: String, success: Bool)?

    package init() {}

    /// The expression's value, or nil when it depends on something unknown or would fail at run time. Evaluated
    /// by the interpreter's own `Evaluator`, so what a generated scenario predicts is what a run does.
    package func evaluate(_ expr: Expr) -> JSONValue? { try? Evaluator.evaluate(expr, self) }

    /// True or false as a guard; nil when unknown or not a boolean (a run-time error).
    package func truth(_ expr: Expr) -> Bool? { try? Evaluator.truth(expr, self) }

    /// A template rendered as text, or nil when a part of it is unknown.
    package func render(_ template: Template) -> String? { try? Evaluator.render(template, self) }
}

extension ScaffoldWorld: EvaluationScope {
    /// Known: the scripted response, the variables computed so far, the store the scenario set up, the inputs and
    /// run variables it gives, the virtual clock, the last call's outcome. Unknown (nil): a call's reason and
    /// outputs, whole `inputs`/`store`/`vars` objects, and anything not given.
    package func value(of read: ExpressionRead) -> JSONValue? {
        switch read {
        case .variable(let name): variables[name]
        case .input(let name): inputs[name].map(JSONValue.string)
        case .store(let key): unknownStore.contains(key) ? nil : store[key] ?? .null
        case .runVariable(let name): vars[name]
        case .root(let root):
            switch root {
            case .status: status.map { .number(Double($0)) } ?? .null
            case .body: body
            case .headers: .object(headers.mapValues(JSONValue.string))
            case .now: .number(now)
            case .outcome: call.map { .string($0.outcome) }
            case .success: call.map { .bool($0.success) }
            case .reason, .outputs, .inputs, .store, .vars: nil
            }
        }
    }
}
