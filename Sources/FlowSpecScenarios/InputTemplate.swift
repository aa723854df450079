import FlowSpecLanguage
import FlowSpecRuntime

/// An input value given before a run — a scenario's `inputs:` or `flowspec exec --input NAME=VALUE` — read the same
/// way in both: text in which `${…}` is evaluated when the run (or step) starts and `$${` is a literal `${`. It can
/// read the run variables and the clock (`${vars.staff_email}`, `${totp(vars.totp_secret)}`, `${now}`): nothing of a
/// flow exists yet. A value typed at a prompt is never a template.
package enum InputTemplate {
    static let readable: Set<Root> = [.vars, .now]

    /// What such text is evaluated against: the run variables and the clock, masking through the run's redactor —
    /// for inputs, expected values, computed waits and command steps alike.
    static func scope(vars: [String: JSONValue], now: Double, _ redactor: Redactor) -> Environment {
        var env = Environment()
        env.vars = vars
        env.now = now
        env.redactor = redactor
        return env
    }

    /// The value as a template, or nil with located diagnostics (a bad `${…}`, a root it cannot read, a type error).
    package static func parse(_ text: String, at location: SourceLocation, name: String, _ d: inout Diagnostics)
        -> Template?
    {
        parse(text, at: location, place: "input `\(name)`", &d)
    }

    /// The same reading for another place that holds text before or between runs — an expected value of a
    /// scenario (`expected output \`username\``): the same scope, the same checks, the same messages.
    package static func parse(_ text: String, at location: SourceLocation, place: String, _ d: inout Diagnostics)
        -> Template?
    {
        let template: Template
        switch Template.parse(text, at: location) {
        case .success(let t): template = t
        case .failure(let diagnostic):
            d.add(diagnostic)
            return nil
        }
        var fine = true
        for e in template.expressions {
            var foreign = false
            e.visit { part in
                switch part.kind {
                case .root(let root) where !readable.contains(root):
                    foreign = true
                    d.error(
                        part.location,
                        "\(place) can read only run variables and the clock, like `${vars.staff_email}` or `${totp(vars.totp_secret)}`; found `\(root.rawValue)`"
                    )
                case .variable(let variable):
                    foreign = true
                    d.error(
                        part.location,
                        "\(place) can read only run variables and the clock; `\(variable)` is not one of them",
                        hint: "a run variable is `vars.\(variable)`; write `$${` for a literal `${`")
                default: break
                }
            }
            // Function arguments (`${totp(vars.totp_secret)}`) are checked as in flows.
            if foreign {
                fine = false
            } else {
                TypeChecker.check(e, in: ExprContext(place: place, declaredInputs: []), into: &d)
            }
        }
        return fine ? template : nil
    }
}
