import FlowSpecLanguage

/// What an expression can see at one moment of a run. Async sources (inputs, the store) are read before
/// evaluation, so evaluation itself is plain synchronous code.
public struct Environment: EvaluationScope, Sendable {
    public var response: HTTPResponse?
    public var call: CallResult?
    public var inputs: [String: String] = [:]
    public var variables: [String: JSONValue] = [:]
    public var store: [String: JSONValue] = [:]
    public var vars: [String: JSONValue] = [:]
    public var now: Double = 0
    /// Where values that turn out to be secret while evaluating (a `totp` secret and its code) are registered,
    /// so they are masked in everything the run shows.
    public var redactor: Redactor?

    public struct CallResult: Sendable {
        public var outcome: String
        public var success: Bool
        public var reason: String
        public var outputs: [String: JSONValue]
    }

    public init() {}

    /// A run knows everything it has: an input or store key it does not have is absent (`null`); only an unset
    /// flow variable or run variable is missing (nil, an error of the expression).
    public func value(of read: ExpressionRead) -> JSONValue? {
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

    public func sawSecret(_ value: String) { redactor?.register(value) }
    public func isSecret(_ text: String) -> Bool { redactor?.isSecret(text) ?? false }
}
