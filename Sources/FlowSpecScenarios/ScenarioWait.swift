import FlowSpecLanguage
import FlowSpecRuntime

/// A scenario's `wait:` step: a duration written as a constant (`16m`, `30s`, `90`) or computed from `now` and
/// `vars` when the step runs (`30 - now % 30`, the time to the next TOTP window) — on the virtual clock in a scripted
/// run, so the result is the same on every run, and really waited in a live one.
package struct ScenarioWait: Sendable {
    package var duration: Expr
    /// Where the value is written: what a run-time problem with it points at.
    package var written: SourceLocation
    /// Where the step is, for a skip's or a failure's "step N" and the report.
    package var location: SourceLocation

    /// What a wait may read: the clock and the run variables; nothing of a flow exists between steps.
    static let readable: Set<Root> = [.now, .vars]

    static func decode(_ node: YAMLNode, step: SourceLocation, _ d: inout Diagnostics) -> ScenarioWait? {
        guard let expr = ExprReader.expression(node, what: "`wait`", &d) else { return nil }
        var readsOnlyTheClockAndVars = true
        expr.visit { e in
            switch e.kind {
            case .root(let root) where !readable.contains(root):
                readsOnlyTheClockAndVars = false
                d.error(
                    e.location, "a scenario `wait` can read `now` and `vars` only; found `\(root.rawValue)`",
                    hint: "e.g. `wait: 30 - now % 30` (to the next 30-second window) or `wait: vars.cooldown`")
            case .variable(let name):
                readsOnlyTheClockAndVars = false
                d.error(
                    e.location, "a scenario `wait` can read `now` and `vars` only; `\(name)` is not one of them",
                    hint: "a run variable is `vars.\(name)`")
            default: break
            }
        }
        guard readsOnlyTheClockAndVars else { return nil }
        let type = TypeChecker.check(expr, in: ExprContext(place: "a scenario `wait`", declaredInputs: []), into: &d)
        if type != .number, type != .any {
            d.error(
                expr.location,
                "`wait` needs a duration such as `16m`, `30s` or `1h`, or a number of seconds, not a \(type.rawValue)",
                hint: "e.g. `wait: 30s` or `wait: 30 - now % 30`")
            return nil
        }
        // A wait that reads nothing is known now: a negative one is a load error, not a failure of every run.
        if expr.roots.isEmpty,
            case .success(let value) = Result(catching: { () throws(EvaluationError) -> JSONValue in
                try Evaluator.evaluate(expr, ConstantScope())
            })
        {
            guard case .number(let seconds) = value, seconds >= 0, seconds.isFinite else {
                d.error(node.location, "`wait` needs a duration such as `16m`, `30s` or `1h`, got \(value.compactJSON)")
                return nil
            }
        }
        return ScenarioWait(duration: expr, written: node.textLocation, location: step)
    }

    /// The seconds to wait, evaluated now; a message located at the expression when it is not a non-negative number.
    func seconds(vars: [String: JSONValue], now: Double, _ redactor: Redactor) -> Result<Double, WaitProblem> {
        let env = InputTemplate.scope(vars: vars, now: now, redactor)
        do throws(EvaluationError) {
            let value = try Evaluator.evaluate(duration, env)
            guard case .number(let seconds) = value, seconds >= 0, seconds.isFinite else {
                return .failure(
                    WaitProblem(
                        message:
                            "\(written): `wait: \(duration.text)` needs a non-negative number of seconds, got \(redactor.redact(value.compactJSON))"
                    ))
            }
            return .success(seconds)
        } catch {
            let hint = error.unsetVariable.map { "; " + RunOrigin.scenario.whereToGive(variable: $0) } ?? ""
            return .failure(WaitProblem(message: "\(error.location): `wait`: \(redactor.redact(error.message))\(hint)"))
        }
    }

    struct WaitProblem: Error { let message: String }
}
