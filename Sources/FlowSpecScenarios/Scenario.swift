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
    /// Credentials written in the file itself (its variables, store, scripted tokens, expected store values),
    /// found once at load time so each run only registers them for masking.
    public var fileSecrets: Set<String> = []

    /// Registers the credentials written in the scenario file: secret-looking variables, tokens the scripted
    /// backend hands out, and store values the scenario sets or expects — even when a failure stops the flow
    /// before they reach the store.
    func registerFileSecrets(in redactor: Redactor) {
        redactor.registerVariables(vars)
        for exchange in exchanges {
            if case .reply(let response) = exchange.response { redactor.registerCredentials(in: response.json) }
        }
        var expectations = expect.map { [$0] } ?? []
        for step in steps { if case .run(let r) = step, let e = r.expect { expectations.append(e) } }
        for e in expectations { for (key, value) in e.store { redactor.registerStored(key.key ?? "", value) } }
        for namespace in store.values { for (key, value) in namespace { redactor.registerStored(key, value) } }
        for step in steps {
            if case .setStore(let values, _) = step {
                for namespace in values.values { for (key, value) in namespace { redactor.registerStored(key, value) } }
            }
        }
    }

    public enum Step: Sendable {
        case run(RunStep)
        /// A constant duration, or one computed from `now` and `vars` when the step runs.
        case wait(ScenarioWait)
        case relaunch(location: SourceLocation)
        /// Writes keys into the store (null removes one), e.g. a garbage access token before calling `/me`.
        case setStore(TokenStore.Snapshot, location: SourceLocation)
        /// Live only: a shell command run for what it does (an admin action, a database update), not for a value.
        case command(Template, location: SourceLocation)
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
        /// Built (and its body parsed) once when the scenario loads, not on every run.
        case reply(HTTPResponse)
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
    /// For a `parallel:` step: at most this many copies may end with each outcome (`at_most: { accepted: 1 }`).
    public var atMost: [(outcome: String, copies: Int)] = []
    /// For a `parallel:` step: the copies that ended with each of these outputs all ended with the same value.
    public var sameOutputs: [String] = []
    /// The expected strings holding `${…}` (in `outputs`, `variables`, `store` values, `reason`, `error`), by their
    /// text as written: rendered with the run's variables when checked (`ExpectedTemplates`).
    public var templates: [String: Template] = [:]
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

extension ScenarioInputs {
    /// Renders input templates against the run variables, at `now` on the run's clock (`totp(...)` reads it).
    public func resolved(
        _ vars: [String: JSONValue], now: Double, _ redactor: Redactor,
        origin: RunOrigin = .scenario
    ) throws(InputError) -> (values: [String: [String]], commands: [String: String]) {
        let env = InputTemplate.scope(vars: vars, now: now, redactor)
        func render(_ t: Template, _ name: String) throws(InputError) -> String {
            do { return try Evaluator.render(t, env) } catch {
                let hint = error.unsetVariable.map { "; " + origin.whereToGive(variable: $0) } ?? ""
                throw InputError("\(error.location): input `\(name)`: \(error.message)\(hint)")
            }
        }
        var out: [String: [String]] = [:]
        for (name, list) in values {
            var rendered: [String] = []
            for t in list { rendered.append(try render(t, name)) }
            out[name] = rendered
        }
        var commandLines: [String: String] = [:]
        for (name, t) in commands { commandLines[name] = try render(t, name) }
        return (out, commandLines)
    }
}
