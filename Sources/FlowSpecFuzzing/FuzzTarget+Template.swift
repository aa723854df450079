import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

extension FuzzTarget {
    /// Input: a template string (`Bearer ${store.access_token}`), a newline, then a JSON value that fills what its
    /// holes read. The template is parsed, its expressions type-checked, and when they check it is rendered as
    /// text (headers, paths, reasons) and as a typed value (JSON bodies), as a run would.
    static func template(_ input: Data) {
        let (templateBytes, json) = FuzzInput.split(input)
        let text = String(decoding: templateBytes, as: UTF8.self)
        guard case .success(let template) = Template.parse(text, at: FuzzWorld.location) else { return }
        var diagnostics = Diagnostics()
        for expr in template.expressions { TypeChecker.check(expr, in: FuzzWorld.context, into: &diagnostics) }
        TypeChecker.check(template.asExpression, in: FuzzWorld.context, into: &diagnostics)
        for diagnostic in diagnostics.sorted { _ = diagnostic.description }
        guard !diagnostics.hasErrors, !KnownIssues.slowRegex(text, size: input.count) else { return }
        let env = FuzzWorld.environment(json)
        _ = try? Evaluator.render(template, env)
        if let value = try? Evaluator.value(template, env) { _ = value.compactJSON }
    }
}
