import FlowSpecLanguage
import FlowSpecRuntime

/// A scenario file: one flow or a sequence of steps sharing one store and clock, a scripted backend, and
/// what must happen.
package struct Scenario: Sendable {
    package var name: String
    package var file: String
    package var location: SourceLocation
    package var tags: [String]
    /// Runs against a real backend (the live adapter, the system clock) instead of scripted exchanges.
    package var live: Bool
    /// Run variables the scenario needs (its inputs and every flow it may run read them); a live scenario
    /// missing any is skipped, naming them.
    package var requiredVars: [String]
    package var steps: [Step]
    package var inputs: ScenarioInputs
    package var store: TokenStore.Snapshot
    package var vars: [String: JSONValue]
    package var clockStart: Double
    package var exchanges: [Exchange]
    package var anyOrder: Bool
    /// Checked after the last step.
    package var expect: Expectation?
    /// Credentials written in the file itself (its variables, store, scripted tokens, expected store values),
    /// found once at load time so each run only registers them for masking.
    package var fileSecrets: Set<String> = []

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

    package enum Step: Sendable {
        case run(RunStep)
        /// A constant duration, or one computed from `now` and `vars` when the step runs.
        case wait(ScenarioWait)
        case relaunch(location: SourceLocation)
        /// Writes keys into the store (null removes one), e.g. a garbage access token before calling `/me`.
        case setStore(TokenStore.Snapshot, location: SourceLocation)
        /// Live only: a shell command run for what it does (an admin action, a database update), not for a value.
        case command(Template, location: SourceLocation)
    }

    package struct RunStep: Sendable {
        package var flow: NameRef
        package var inputs: ScenarioInputs
        package var parallel: Int
        package var expect: Expectation?
        package var location: SourceLocation
    }

    /// Every flow the scenario runs.
    package var flowNames: [String] {
        steps.compactMap { if case .run(let r) = $0 { return r.flow.name } else { return nil } }
    }
}

/// Input values (text templates: `${vars.staff_email}`) and input commands, by input name.
package struct ScenarioInputs: Sendable {
    package var values: [String: [Template]] = [:]
    /// Shell commands whose trimmed output is the value (`code: { command: "${vars.email_code_command}" }`).
    package var commands: [String: Template] = [:]

    package init(values: [String: [Template]] = [:], commands: [String: Template] = [:]) {
        self.values = values
        self.commands = commands
    }

    package var isEmpty: Bool { values.isEmpty && commands.isEmpty }
    package var names: Set<String> { Set(values.keys).union(commands.keys) }
    package var templates: [Template] { values.values.flatMap { $0 } + Array(commands.values) }
}

package struct Exchange: Sendable {
    package var location: SourceLocation
    package var request: RequestMatcher
    package var response: Response
    package var times: Int
    package var concurrent: Bool

    package enum Response: Sendable {
        /// Built (and its body parsed) once when the scenario loads, not on every run.
        case reply(HTTPResponse)
        case fail(TransportError.Kind)
    }
}

package struct RequestMatcher: Sendable {
    package var method: String?
    package var path: String?
    package var query: [(String, String)] = []
    package var headers: [(String, String)] = []
    package var headersAbsent: [String] = []
    package var json: JSONValue?
    package var form: [(String, String)]?
}

package struct Expectation: Sendable {
    package var location: SourceLocation
    package var outcome: String?
    package var success: Bool?
    package var path: [NameRef]?
    package var variables: [(String, JSONValue)] = []
    package var outputs: [(String, JSONValue)] = []
    package var reason: String?
    package var error: String?
    package var store: [(StoreKey, JSONValue)] = []
    package var storePresent: [StoreKey] = []
    package var storeAbsent: [StoreKey] = []
    package var requestCount: Int?
    package var requests: [RequestCheck] = []
    /// For a `parallel:` step: at most this many copies may end with each outcome (`at_most: { accepted: 1 }`).
    package var atMost: [(outcome: String, copies: Int)] = []
    /// For a `parallel:` step: the copies that ended with each of these outputs all ended with the same value.
    package var sameOutputs: [String] = []
    /// The expected strings holding `${…}` (in `outputs`, `variables`, `store` values, `reason`, `error`), by their
    /// text as written: rendered with the run's variables when checked (`ExpectedTemplates`).
    package var templates: [String: Template] = [:]
}

/// `namespace.key`, or `namespace` alone for the whole namespace.
package struct StoreKey: Sendable, CustomStringConvertible {
    package var namespace: String
    package var key: String?
    package var description: String { key.map { "\(namespace).\($0)" } ?? namespace }
}

package struct RequestCheck: Sendable {
    package var location: SourceLocation
    package var method: String?
    package var path: String?
    package var count: Int?
    package var headers: [(String, String)] = []
    package var headersAbsent: [String] = []
    package var json: JSONValue?
}

extension ScenarioInputs {
    /// Renders input templates against the run variables, at `now` on the run's clock (`totp(...)` reads it).
    package func resolved(
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
