/// `it` inside a list function's second argument: the element being looked at, and the work budget the whole
/// outermost list function shares.
package struct ListElement {
    package let value: JSONValue
    let work: ListWork
}

/// The scope a list function's second argument is evaluated in: everything its caller's scope answers, plus the
/// element as `it`. A list function nested in the second argument wraps this scope again, so the innermost element
/// wins. Secrets seen while evaluating go to the caller's scope, so they are masked as anywhere else.
struct ElementScope: EvaluationScope {
    let base: any EvaluationScope
    let element: ListElement

    func value(of read: ExpressionRead) -> JSONValue? { base.value(of: read) }
    func sawSecret(_ value: String) { base.sawSecret(value) }
    func isSecret(_ text: String) -> Bool { base.isSecret(text) }
    var listElement: ListElement? { element }
}
