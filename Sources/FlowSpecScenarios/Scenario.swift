import FlowSpecLanguage
import FlowSpecRuntime

/// A scenario file: one flow or a sequence of steps sharing one store and clock, a scripted backend, and
/// what must happen.
public struct Scenario: Sendable {
    public var name: String
    public var file: String
    public var location: SourceLocation
    public var tags: [String]
    /// Runs against a real backend (the live adapter, the system clock) instead of scripted exchanges.
    public var live: Bool
    /// Run variables the scenario needs (its inputs and every flow it may run read them); a live scenario
    /// missing any is skipped, naming them.
    public var requiredVars: [String]
    public var steps: [Step]
    public var inputs: ScenarioInputs
    public var store: TokenStore.Snapshot
    public var vars: [String: JSONValue]
    public var clockStart: Double
    public var exchanges: [Exchange]
    public var anyOrder: Bool
    /// Checked after the last step.
    public var expect: Expectation?

    public enum Step: Sendable {
        case run(RunStep)
        case wait(seconds: Double, location: SourceLocation)
        case relaunch(location: SourceLocation)
        /// Writes keys into the store (null removes one), e.g. a garbage access token before calling `/me`.
        case setStore(TokenStore.Snapshot, location: SourceLocation)
    }

    public struct RunStep: Sendable {
        public var flow: NameRef
        public var inputs: ScenarioInputs
        public var parallel: Int
        public var expect: Expectation?
        public var location: SourceLocation
    }

    /// Every flow the scenario runs.
    public var flowNames: [String] {
        steps.compactMap { if case .run(let r) = $0 { return r.flow.name } else { return nil } }
    }
}

/// Input values (text templates: `${vars.staff_email}`) and input commands, by input name.
public struct ScenarioInputs: Sendable {
    public var values: [String: [Template]] = [:]
    /// Shell commands whose trimmed output is the value (`code: { command: "${vars.email_code_command}" }`).
    public var commands: [String: Template] = [:]

    public init(values: [String: [Template]] = [:], commands: [String: Template] = [:]) {
        self.values = values
        self.commands = commands
    }

    public var isEmpty: Bool { values.isEmpty && commands.isEmpty }
    public var names: Set<String> { Set(values.keys).union(commands.keys) }
    public var templates: [Template] { values.values.flatMap { $0 } + Array(commands.values) }
}

public struct Exchange: Sendable {
    public var location: SourceLocation
    public var request: RequestMatcher
    public var response: Response
    public var times: Int
    public var concurrent: Bool

    public enum Response: Sendable {
        case reply(status: Int, headers: [(String, String)], body: [UInt8])
        case fail(TransportError.Kind)
    }
}

public struct RequestMatcher: Sendable {
    public var method: String?
    public var path: String?
    public var query: [(String, String)] = []
    public var headers: [(String, String)] = []
    public var headersAbsent: [String] = []
    public var json: JSONValue?
    public var form: [(String, String)]?
}

public struct Expectation: Sendable {
    public var location: SourceLocation
    public var outcome: String?
    public var success: Bool?
    public var path: [NameRef]?
    public var variables: [(String, JSONValue)] = []
    public var outputs: [(String, JSONValue)] = []
    public var reason: String?
    public var error: String?
    public var store: [(StoreKey, JSONValue)] = []
    public var storePresent: [StoreKey] = []
    public var storeAbsent: [StoreKey] = []
    public var requestCount: Int?
    public var requests: [RequestCheck] = []

    public var hasRunChecks: Bool {
        outcome != nil || success != nil || path != nil || !variables.isEmpty || !outputs.isEmpty || reason != nil || error != nil
    }
}

/// `namespace.key`, or `namespace` alone for the whole namespace.
public struct StoreKey: Sendable, CustomStringConvertible {
    public var namespace: String
    public var key: String?
    public var description: String { key.map { "\(namespace).\($0)" } ?? namespace }
}

public struct RequestCheck: Sendable {
    public var location: SourceLocation
    public var method: String?
    public var path: String?
    public var count: Int?
    public var headers: [(String, String)] = []
    public var headersAbsent: [String] = []
    public var json: JSONValue?
}
