/// Recursive descent over the lexer's tokens:
///
///     or   := and ("or" and)*
///     and  := not ("and" not)*
///     not  := "not" not | atom
///     atom := NAME | "(" or ")"
struct TagExpressionParser {
    typealias Token = TagExpressionLexer.Token

    let tokens: [Token]
    let text: String
    private var position = 0

    init(tokens: [Token], text: String) {
        self.tokens = tokens
        self.text = text
    }

    mutating func parseWhole() throws(TagExpressionError) -> TagExpression {
        if tokens.isEmpty {
            throw TagExpressionError(
                message: "the expression is empty: expected a tag name or ( at column 1", column: 1)
        }
        let expression = try parseOr()
        if let token = peek {
            // Only a stray ")" or a second operand can be left over: parseOr consumed every "and" and "or".
            if token.kind == .close {
                throw TagExpressionError(
                    message: "unmatched ) at column \(token.column): no ( before it", column: token.column)
            }
            throw error("expected and or or", at: token)
        }
        return expression
    }

    private mutating func parseOr() throws(TagExpressionError) -> TagExpression {
        var left = try parseAnd()
        while let token = peek, token.kind == .or {
            position += 1
            left = .or(left, try parseAnd())
        }
        return left
    }

    private mutating func parseAnd() throws(TagExpressionError) -> TagExpression {
        var left = try parseNot()
        while let token = peek, token.kind == .and {
            position += 1
            left = .and(left, try parseNot())
        }
        return left
    }

    private mutating func parseNot() throws(TagExpressionError) -> TagExpression {
        if let token = peek, token.kind == .not {
            position += 1
            return .not(try parseNot())
        }
        return try parseAtom()
    }

    private mutating func parseAtom() throws(TagExpressionError) -> TagExpression {
        guard let token = peek else { throw error("expected a tag name or (", at: nil) }
        switch token.kind {
        case .name(let name):
            position += 1
            return .tag(name)
        case .open:
            position += 1
            let inner = try parseOr()
            guard peek?.kind == .close else {
                throw error(
                    peek == nil ? "expected ) to close the ( from column \(token.column)" : "expected and, or or )",
                    at: peek)
            }
            position += 1
            return inner
        case .close, .and, .or, .not:
            throw error("expected a tag name or (", at: token)
        }
    }

    private var peek: Token? { position < tokens.count ? tokens[position] : nil }

    /// `expected … after "prev" at column N[, found "x"]`: what was expected, where, and what was there instead.
    /// `token` nil means the expression ended; the column is then one past its end.
    private func error(_ expected: String, at token: Token?) -> TagExpressionError {
        let index = token == nil ? tokens.count : position
        let after = index > 0 ? " after \"\(tokens[index - 1].text)\"" : ""
        let column = token?.column ?? text.count + 1
        let found = token.map { ", found \"\($0.text)\"" } ?? ""
        return TagExpressionError(message: "\(expected)\(after) at column \(column)\(found)", column: column)
    }
}
