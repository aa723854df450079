import FlowSpecLanguage
import FlowSpecRuntime

/// Expected values that read the run: a string in an expectation's `outputs`, `variables` or `store` values (at any
/// depth), `reason` or `error` that holds `${…}` is read as a scenario input is (`InputTemplate`: run variables and
/// the clock, `$${` a literal `${`) and rendered with the run's variables when it is checked — so a live scenario
/// can expect "the username I logged in with", `outputs: { username: "${vars.qa_username}" }`, whatever account runs
/// it. A string without `${` stays exactly as written.
extension Expectation {
    /// Whether a string as written is a template rather than a literal.
    static func isTemplate(_ text: String) -> Bool { text.contains("${") }

    /// The value as written, its template strings parsed into `templates` (located load-time errors otherwise).
    static func expected(
        _ node: YAMLNode, place: String, into templates: inout [String: Template], _ d: inout Diagnostics
    ) -> JSONValue {
        func collect(_ node: YAMLNode, _ place: String) {
            switch node.content {
            case .scalar(let text, _):
                guard case .string = node.json, isTemplate(text), templates[text] == nil else { return }
                if let template = InputTemplate.parse(text, at: node.textLocation, place: place, &d) {
                    templates[text] = template
                }
            case .mapping(let pairs): for pair in pairs { collect(pair.value, place) }
            case .sequence(let items): for item in items { collect(item, place) }
            }
        }
        collect(node, place)
        return node.json
    }

    /// Every run variable the templates read: a live scenario without one is skipped naming it, as for its inputs.
    var templateVarsReads: [String] { templates.values.flatMap(\.expressions).flatMap(\.varsReads).map(\.0) }

    /// This expectation with its templates rendered over `vars` at `now`: a lone `${expr}` keeps its JSON type (as in
    /// a flow's `json:` body), text around it makes a string. A rendered value that is a secret stays masked: the
    /// redactor already knows the secret run variables, and store values are registered as the file's own are.
    func rendered(vars: [String: JSONValue], now: Double, _ redactor: Redactor) throws(InputError) -> Expectation {
        guard !templates.isEmpty else { return self }
        let env = InputTemplate.scope(vars: vars, now: now, redactor)
        func failure(_ error: EvaluationError) -> InputError {
            let hint = error.unsetVariable.map { "; " + RunOrigin.scenario.whereToGive(variable: $0) } ?? ""
            return InputError("\(error.location): expected value: \(redactor.redact(error.message))\(hint)")
        }
        func value(_ json: JSONValue) throws(InputError) -> JSONValue {
            switch json {
            case .string(let text):
                guard let template = templates[text] else { return json }
                do { return try Evaluator.value(template, env) } catch { throw failure(error) }
            case .array(let items):
                var out: [JSONValue] = []
                for item in items { out.append(try value(item)) }
                return .array(out)
            case .object(let fields):
                var out: [String: JSONValue] = [:]
                for (key, field) in fields { out[key] = try value(field) }
                return .object(out)
            default: return json
            }
        }
        func text(_ written: String?) throws(InputError) -> String? {
            guard let written, let template = templates[written] else { return written }
            do { return try Evaluator.render(template, env) } catch { throw failure(error) }
        }
        var out = self
        out.templates = [:]
        out.variables = []
        for (name, expected) in variables { out.variables.append((name, try value(expected))) }
        out.outputs = []
        for (name, expected) in outputs { out.outputs.append((name, try value(expected))) }
        out.store = []
        for (key, expected) in store {
            let shown = try value(expected)
            redactor.registerStored(key.key ?? "", shown)
            out.store.append((key, shown))
        }
        out.reason = try text(reason)
        out.error = try text(error)
        return out
    }
}
