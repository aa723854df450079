import FlowSpecLanguage

/// What a scaffolded scenario will say, worked out by walking a path: the inputs in the order the run asks
/// for them, the initial store, one exchange per request, and a TODO for everything that could not be derived.
public struct ScaffoldPlan: Sendable {
    public struct InputValue: Sendable, Equatable {
        public var value: String
        /// Why the value needs a person's attention (every input is a placeholder; some are also invalid on purpose).
        public var note: String
    }

    public struct Exchange: Sendable {
        public enum Response: Sendable {
            case reply(status: Int, headers: [(String, String)], json: JSONValue?)
            /// No response at all: the scripted backend refuses the connection.
            case refused
        }
        /// `flow.state`, for the comment above the exchange.
        public var flow: String
        public var state: String
        public var edgeText: String
        public var method: String
        public var path: String
        public var response: Response
        public var todos: [String]
    }

    public var inputs: [(name: String, values: [InputValue])] = []
    /// namespace → key → value, with whether the value is a placeholder to replace.
    public var store: [String: [String: (value: JSONValue, placeholder: Bool)]] = [:]
    public var exchanges: [Exchange] = []
    /// TODOs that belong to no exchange (choices, calls, inputs).
    public var todos: [String] = []

    /// Every TODO that must be resolved before the scenario can pass (placeholders are not counted).
    public var openTodos: [String] { todos + exchanges.flatMap(\.todos) }

    mutating func addInput(_ name: String, _ value: InputValue) {
        if let i = inputs.firstIndex(where: { $0.name == name }) {
            inputs[i].values.append(value)
        } else {
            inputs.append((name, [value]))
        }
    }

    func hasInput(_ name: String) -> Bool { inputs.contains { $0.name == name } }
}

/// Placeholder input values that pass (or, for `invalid:` edges, fail) an input's rules.
public enum ScaffoldInputs {
    public static func valid(for input: InputDecl) -> String? {
        let candidates: [String] = switch input.kind {
        case .email: ["qa@example.com"]
        case .phone: ["+15555550100"]
        case .code: ["123456", "ABCDEFGH", "ABC123"]
        case .string: ["TODO", "todo", "123456", "qa@example.com"]
        }
        return candidates.first { input.problem(with: $0) == nil }
    }

    public static func invalid(for input: InputDecl) -> String? {
        let candidates = ["not-a-code!", "not-an-email", "12345", "", "!"]
        return candidates.first { input.problem(with: $0) != nil }
    }
}
