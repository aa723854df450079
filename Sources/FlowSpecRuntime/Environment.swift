import FlowSpecLanguage

/// What an expression can see at one moment of a run. Async sources (inputs, the store) are read before
/// evaluation, so evaluation itself is plain synchronous code.
package struct Environment: EvaluationScope, Sendable {
    package var response: HTTPResponse?
    package var call: CallResult?
    package var inputs: [String: String] = [:]
    package var variables: [String: JSONValue] = [:]
    package var store: [String: JSONValue] = [:]
    package var vars: [String: JSONValue] = [:]
    package var now: Double = 0
    /// Where values that turn out to be secret while evaluating (a `totp` secret and its code) are registered,
    /// so they are masked in everything the run shows.
    package var redactor: Redactor?

    package struct CallResult: Sendable {
        package var outcome: String
        package var success: Bool
        package var reason: String
        package var outputs: [String: JSONValue]
    }

    package init() {}

    /// A run knows everything it has: an input or store key it does not have is absent (`null`); only an unset
    /// flow variable or run variable is missing (nil, an error of the expression).
    package func value(of read: ExpressionRead) -> JSONValue? {
        switch read {
        case .variable(let name): variables[name]
        case .input(let name): inputs[name].map(JSONValue.string) ?? .null
        case .store(let key): store[key] ?? .null
        case .runVariable(let name): vars[name]
        case .root(let root):
            switch root {
            case .status: response.map { .number(Double($0.status)) } ?? .null
            case .body: response?.json ?? .null
            case .headers: response?.headerObject ?? .object([:])
            case .now: .number(now)
            case .outcome: call.map { .string($0.outcome) } ?? .null
            case .success: call.map { .bool($0.success) } ?? .null
            case .reason: call.map { .string($0.reason) } ?? .null
            case .outputs: call.map { .object($0.outputs) } ?? .null
            case .inputs: .object(inputs.mapValues(JSONValue.string))
            case .store: .object(store)
            case .vars: .object(vars)
            }
        }
    }

    package func sawSecret(_ value: String) { redactor?.register(value) }
    package func isSecret(_ text: String) -> Bool { redactor?.isSecret(text) ?? false }
}
