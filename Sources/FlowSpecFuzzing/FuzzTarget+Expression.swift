import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

extension FuzzTarget {
    /// Input: an expression, a newline, then a JSON value that fills every root the expression can read (body,
    /// headers, store, vars, variables, inputs, `now`). The expression is lexed, parsed and type-checked; when it
    /// type-checks (as every expression a run evaluates must), it is evaluated both as a value and as a condition.
    /// Errors are fine; traps and hangs are not.
    static func expression(_ input: Data) {
        let (expressionBytes, json) = FuzzInput.split(input)
        let text = String(decoding: expressionBytes, as: UTF8.self)
        guard case .success(let expr) = ExpressionParser.parse(text, at: FuzzWorld.location) else { return }
        var diagnostics = Diagnostics()
        TypeChecker.check(expr, in: FuzzWorld.context, into: &diagnostics)
        for diagnostic in diagnostics.sorted { _ = diagnostic.description }
        guard !diagnostics.hasErrors, !KnownIssues.slowRegex(text, size: input.count) else { return }
        let env = FuzzWorld.environment(json)
        if let value = try? Evaluator.evaluate(expr, env) {
            _ = value.compactJSON
            _ = value.interpolated
        }
        _ = try? Evaluator.truth(expr, env)
    }
}
