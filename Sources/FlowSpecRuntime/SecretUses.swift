import FlowSpecLanguage

/// Which run variables and inputs the loaded flows use **as secrets**, found once at load time, so a run variable
/// is masked because of where it goes, not because of what it is called (`code_email` is an address; a variable
/// called `qa_login_value` that is sent as the password is a secret).
///
/// A value is used as a secret when it feeds (directly, or through flow variables, inputs and `call` inputs):
/// - an input declared `secret: true` or `type: code`;
/// - a credential header — `Authorization`, `Cookie`, `apikey`, `X-API-Key`, `Proxy-Authorization`, or one named
///   like a credential (`X-Auth-Token`) — of a request, a flow's `defaults.headers` or a session;
/// - a request field named like a credential (`password`, `code`, `refresh_token`, any depth of a JSON body, a form
///   field, a query parameter), by the field's own name;
/// - a flow variable set under a credential's name (`set: { code: … }`) or a store key named like one;
/// - the secret of `totp(…)`, or the token of `forge_jwt(…)`, wherever the call is.
///
/// The same places are registered at run time as values are sent (`Redactor.registerSent`); finding them ahead
/// masks the variable from the run's first line, in every scenario of the run, including one that shows it
/// before any request uses it.
package struct SecretUses: Sendable {
    /// Run variables used as secrets.
    package private(set) var variables: Set<String> = []
    /// Inputs used as secrets by some flow: a scenario or probe input of that name is masked (inputs are matched by
    /// name, as a scenario gives them).
    package private(set) var inputs: Set<String> = []

    package init() {}

    package init(specs: SpecSet) {
        var secretExprs: [Expr] = []
        for session in specs.sessions.values {
            for (name, template) in session.headers where Self.isCredentialHeader(name) {
                secretExprs += template.expressions
            }
        }
        // Inputs each flow uses as secrets; grows as `call` inputs carry secrets into callees and back out to callers.
        var flowInputs: [String: Set<String>] = [:]
        var flowExprs: [String: [Expr]] = [:]
        for flow in specs.flows.values {
            let (exprs, inputs) = Self.secretUses(in: flow, calleeInputs: [:], specs: specs)
            flowExprs[flow.name] = exprs
            flowInputs[flow.name] = inputs
        }
        // A `call` passes a caller's values into a callee's inputs: repeat until no flow learns more (each round adds
        // at least one input, so it ends).
        var changed = true
        var rounds = 0
        while changed, rounds < 64 {
            changed = false
            rounds += 1
            for flow in specs.flows.values {
                let (exprs, inputs) = Self.secretUses(in: flow, calleeInputs: flowInputs, specs: specs)
                if inputs != flowInputs[flow.name] || exprs.count != flowExprs[flow.name]?.count {
                    flowInputs[flow.name] = inputs
                    flowExprs[flow.name] = exprs
                    changed = true
                }
            }
        }
        secretExprs += flowExprs.values.joined()
        for flow in specs.flows.values { secretExprs += Self.totpArguments(in: Self.allExpressions(of: flow)) }
        for session in specs.sessions.values {
            secretExprs += Self.totpArguments(in: session.headers.flatMap { $0.1.expressions })
        }
        variables = Set(secretExprs.flatMap(\.varsReads).map(\.0))
        inputs = Set(flowInputs.values.joined())
    }

    /// Adds what input templates given by a scenario or probe file use as secrets: the run variables in the value of
    /// an input some flow uses as a secret, and every `totp(…)` secret.
    package mutating func add(inputs templates: [String: [Template]]) {
        for (name, list) in templates {
            let exprs = list.flatMap(\.expressions)
            if inputs.contains(name) { variables.formUnion(exprs.flatMap(\.varsReads).map(\.0)) }
            variables.formUnion(Self.totpArguments(in: exprs).flatMap(\.varsReads).map(\.0))
        }
    }

    package mutating func formUnion(_ other: SecretUses) {
        variables.formUnion(other.variables)
        inputs.formUnion(other.inputs)
    }

    static func isCredentialHeader(_ name: String) -> Bool {
        Redactor.isSensitiveHeader(name) || CredentialKey.isCredential(name)
    }

    /// The expressions of `flow` whose values are secrets, and the inputs it uses as secrets, given what the flows it
    /// calls use as secrets.
    static func secretUses(in flow: Flow, calleeInputs: [String: Set<String>], specs: SpecSet) -> ([Expr], Set<String>)
    {
        var exprs: [Expr] = []
        for (name, template) in flow.headers where isCredentialHeader(name) { exprs += template.expressions }
        for state in flow.orderedStates {
            switch state.kind {
            case .request(let r):
                for (name, template) in r.headers where isCredentialHeader(name) { exprs += template.expressions }
                for (name, template) in r.query where CredentialKey.isCredential(name) { exprs += template.expressions }
                switch r.body {
                case .json(let value): exprs += credentialFields(of: value)
                case .form(let fields):
                    for (name, template) in fields where CredentialKey.isCredential(name) {
                        exprs += template.expressions
                    }
                case .none: break
                }
            case .call(let c):
                let secret =
                    calleeInputs[c.flow.name]
                    ?? Set(specs.flows[c.flow.name]?.inputs.filter(\.isMasked).map(\.name) ?? [])
                for (input, expr) in c.with where secret.contains(input.name) { exprs.append(expr) }
            case .input, .choice, .wait, .end: break
            }
            for t in state.transitions {
                for (name, expr) in t.set where CredentialKey.isCredentialName(name) { exprs.append(expr) }
                for (key, expr) in t.store where CredentialKey.isCredential(key) || Redactor.mentionsSession(key) {
                    exprs.append(expr)
                }
            }
        }
        // A flow variable read by a secret is a secret: its definitions are too (`variables:` and every `set:` of it).
        var definitions: [String: [Expr]] = [:]
        for (name, expr) in flow.variables { definitions[name, default: []].append(expr) }
        for state in flow.orderedStates {
            for t in state.transitions { for (name, expr) in t.set { definitions[name, default: []].append(expr) } }
        }
        var seen: Set<String> = []
        var pending = exprs
        while let expr = pending.popLast() {
            for (name, _) in expr.variableReads where seen.insert(name).inserted {
                let more = definitions[name] ?? []
                exprs += more
                pending += more
            }
        }
        let inputs = Set(flow.inputs.filter(\.isMasked).map(\.name)).union(exprs.flatMap(\.inputReads).map(\.0))
        return (exprs, inputs)
    }

    /// The expressions under JSON fields named like a credential, at any depth.
    static func credentialFields(of value: TemplateValue) -> [Expr] {
        switch value {
        case .literal: []
        case .template: []
        case .array(let items): items.flatMap(credentialFields)
        case .object(let fields):
            fields.flatMap { key, field in
                CredentialKey.isCredential(key) ? field.expressions : credentialFields(of: field)
            }
        }
    }

    static func allExpressions(of flow: Flow) -> [Expr] {
        flow.variables.map(\.1) + ([flow.baseURL].compactMap { $0 } + flow.headers.map(\.1)).flatMap(\.expressions)
            + flow.orderedStates.flatMap(FlowChecker.expressions(in:))
    }

    /// The secret argument of every `totp(…)` and the token of every `forge_jwt(…)` inside `exprs`.
    static func totpArguments(in exprs: [Expr]) -> [Expr] {
        var out: [Expr] = []
        for expr in exprs {
            expr.visit { node in
                if case .call(let function, let args) = node.kind, function == .totp || function == .forgeJWT,
                    let first = args.first
                {
                    out.append(first)
                }
            }
        }
        return out
    }
}

extension InputDecl {
    /// Masked wherever it appears: declared `secret: true`, or a one-time code (`type: code`).
    package var isMasked: Bool { secret || kind == .code }
}
