/// A boolean expression over a scenario's tags, as given to `--tag`: `smoke`, `smoke and not slow`,
/// `(a or b) and not c`. Precedence: `not` binds tightest, then `and`, then `or`; parentheses group.
/// Tag names are `[A-Za-z0-9_.:/-]+`; `and`, `or` and `not` are the operators (lowercase), never tag names.
package indirect enum TagExpression: Sendable, Equatable, CustomStringConvertible {
    case tag(String)
    case not(TagExpression)
    case and(TagExpression, TagExpression)
    case or(TagExpression, TagExpression)

    /// Parses `text`, or throws an error naming the 1-based column and what was expected there.
    package static func parse(_ text: String) throws(TagExpressionError) -> TagExpression {
        var parser = TagExpressionParser(tokens: try TagExpressionLexer.tokens(of: text), text: text)
        return try parser.parseWhole()
    }

    /// True when a scenario carrying `tags` is selected.
    package func matches(_ tags: Set<String>) -> Bool {
        switch self {
        case .tag(let name): tags.contains(name)
        case .not(let inner): !inner.matches(tags)
        case .and(let left, let right): left.matches(tags) && right.matches(tags)
        case .or(let left, let right): left.matches(tags) || right.matches(tags)
        }
    }

    /// Every tag name the expression mentions, for "no scenario has the tag …" warnings.
    package var tagNames: Set<String> {
        switch self {
        case .tag(let name): [name]
        case .not(let inner): inner.tagNames
        case .and(let left, let right), .or(let left, let right): left.tagNames.union(right.tagNames)
        }
    }

    /// Fully parenthesised, so tests and messages show how precedence grouped the expression.
    package var description: String {
        switch self {
        case .tag(let name): name
        case .not(let inner): "(not \(inner))"
        case .and(let left, let right): "(\(left) and \(right))"
        case .or(let left, let right): "(\(left) or \(right))"
        }
    }
}

/// Why a tag expression did not parse: a sentence naming the column and what was expected there, e.g.
/// `expected a tag name or ( after "and" at column 10`. `column` is 1-based (one past the end when it ended early).
package struct TagExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var column: Int

    package init(message: String, column: Int) {
        self.message = message
        self.column = column
    }

    package var description: String { message }
}
