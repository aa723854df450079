import FlowSpecLanguage
import FlowSpecRuntime

/// A scenario file: one flow or a sequence of steps sharing one store and clock, a scripted backend, and
/// what must happen.
public struct Scenario: Sendable {
    public var name: String
    public var file: String
    public var location: SourceLocation
    public var tags: [String]
    public var steps: [Step]
    public var inputs: [String: [String]]
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
    }

    public struct RunStep: Sendable {
        public var flow: NameRef
        public var inputs: [String: [String]]
        public var parallel: Int
        public var expect: Expectation?
        public var location: SourceLocation
    }

    /// Every flow the scenario runs.
    public var flowNames: [String] {
        steps.compactMap { if case .run(let r) = $0 { return r.flow.name } else { return nil } }
    }
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
