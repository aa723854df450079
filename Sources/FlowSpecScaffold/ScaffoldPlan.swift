import FlowSpecLanguage

/// What a scaffolded scenario will say, worked out by walking a path: the inputs in the order the run asks
/// for them, the initial store, one exchange per request, and a TODO for everything that could not be derived.
package struct ScaffoldPlan: Sendable {
    package struct InputValue: Sendable, Equatable {
        package var value: String
        /// Why the value needs a person's attention (every input is a placeholder; some are also invalid on purpose).
        package var note: String
    }

    package struct Exchange: Sendable {
        package enum Response: Sendable {
            case reply(status: Int, headers: [(String, String)], json: JSONValue?)
            /// No response at all: the scripted backend refuses the connection.
            case refused
        }
        /// `flow.state`, for the comment above the exchange.
        package var flow: String
        package var state: String
        package var edgeText: String
        package var method: String
        package var path: String
        package var response: Response
        package var todos: [String]
    }

    package var inputs: [(name: String, values: [InputValue])] = []
    /// namespace → key → value, with whether the value is a placeholder to replace.
    package var store: [String: [String: (value: JSONValue, placeholder: Bool)]] = [:]
    package var exchanges: [Exchange] = []
    /// Run variables the flows read (beyond `base_url`, which scripted runs do without), as placeholders.
    package var vars: [String: JSONValue] = [:]
    /// TODOs that belong to no exchange (choices, calls, inputs).
    package var todos: [String] = []

    /// Every TODO that must be resolved before the scenario can pass (placeholders are not counted).
    package var openTodos: [String] { todos + exchanges.flatMap(\.todos) }

    mutating func addInput(_ name: String, _ value: InputValue) {
        if let i = inputs.firstIndex(where: { $0.name == name }) {
            inputs[i].values.append(value)
        } else {
            inputs.append((name, [value]))
        }
    }
}

/// Placeholder input values that pass (or, for `invalid:` edges, fail) an input's rules.
package enum ScaffoldInputs {
    package static func valid(for input: InputDecl) -> String? {
        let candidates: [String] =
            switch input.kind {
            case .email: ["qa@example.com"]
            case .phone: ["+15555550100"]
            case .code: ["123456", "ABCDEFGH", "ABC123"]
            case .string: ["TODO", "todo", "123456", "qa@example.com"]
            }
        return candidates.first { input.problem(with: $0) == nil }
    }

    package static func invalid(for input: InputDecl) -> String? {
        let candidates = ["not-a-code!", "not-an-email", "12345", "", "!"]
        return candidates.first { input.problem(with: $0) != nil }
    }
}

/// Run variables a scripted run of a flow needs: every `vars.X` its flows and sessions read, except those only
/// `defaults.base_url` reads (the scripted backend matches paths, not hosts).
package enum ScaffoldVars {
    package static func needed(by flow: Flow, specs: SpecSet) -> [String] {
        var exprs: [Expr] = []
        let (flows, sessions) = specs.reachable(from: [flow.name])
        for f in flows {
            exprs += f.variables.map(\.1) + f.headers.flatMap { $0.1.expressions }
            for name in f.stateOrder { if let state = f.states[name] { exprs += FlowChecker.expressions(in: state) } }
        }
        for session in sessions {
            exprs += session.headers.flatMap { $0.1.expressions }
            if let refresh = session.refresh {
                exprs += [refresh.when, refresh.aheadExpiresAt, refresh.aheadMargin].compactMap { $0 }
            }
        }
        var seen = Set<String>()
        return exprs.flatMap(\.varsReads).map(\.0).filter { seen.insert($0).inserted }.sorted()
    }

    /// A URL where one is expected (`url:` templates must parse), else a recognisable placeholder.
    package static func placeholder(_ name: String) -> JSONValue {
        name.lowercased().contains("url") ? .string("https://backend.example") : .string("placeholder-\(name)")
    }
}
