/// What an expression reads, and how a scope answers. The interpreter's scope knows everything a run has (a
/// value, or `.null` for an input or store key that is absent); the scenario generator's scope knows only what a
/// scripted path fixes and answers nil for the rest. Both evaluate through the one `Evaluator`, so a generated
/// scenario predicts exactly what a run does.
package enum ExpressionRead: Sendable {
    /// A flow variable (`set:`, `variables:`).
    case variable(String)
    /// `status`, `body`, `headers`, `now`, `outcome`, `success`, `reason`, `outputs`, `inputs`, `store`, `vars`.
    case root(Root)
    /// `inputs.<name>`
    case input(String)
    /// `store.<key>`
    case store(String)
    /// `vars.<name>`
    case runVariable(String)
}

package protocol EvaluationScope {
    /// The value read, or nil when this scope does not have it. nil is an error of the expression: a variable
    /// not set, a run variable not given, or (for a partial scope) a value not known.
    func value(of read: ExpressionRead) -> JSONValue?
    /// A value that turned out to be secret while evaluating (a `totp` secret and its code, a forged token), so
    /// everything the run shows masks it.
    func sawSecret(_ value: String)
    /// Whether `text` is a registered secret: a slice of one is a secret too.
    func isSecret(_ text: String) -> Bool
    /// The element a list function is looking at (`it`); nil outside a list function's second argument. Only the
    /// evaluator's own element scope has one: every other scope takes the default.
    var listElement: ListElement? { get }
}

extension EvaluationScope {
    package func sawSecret(_ value: String) {}
    package func isSecret(_ text: String) -> Bool { false }
    package var listElement: ListElement? { nil }
}

package struct EvaluationError: Error, Sendable {
    package var location: SourceLocation
    package var message: String
    /// The run variable that was read but not set: the caller knows where it could have been given.
    package var unsetVariable: String?

    package init(location: SourceLocation, message: String, unsetVariable: String? = nil) {
        self.location = location
        self.message = message
        self.unsetVariable = unsetVariable
    }
}

/// A scope with no values, for what must be a constant (a scenario's `wait: 16m`): reading anything is an error.
package struct ConstantScope: EvaluationScope {
    package init() {}
    package func value(of read: ExpressionRead) -> JSONValue? { nil }
}
