/// Recursive-descent parser for the expression language. Precedence, loosest first:
/// `||`, `&&`, `!`, comparisons and `in`, `+ -`, `* / %`, unary `-`, postfix `.name` `[i]`.
package enum ExpressionParser {
    static let maxTokens = 257
    static let maxDepth = 32
    /// Built once: a dictionary literal inside `parseComparison` would be rebuilt for every operand parsed.
    static let comparisons: [String: BinaryOp] = [
        "==": .equal, "!=": .notEqual, "<": .less, "<=": .lessEqual, ">": .greater, ">=": .greaterEqual,
    ]

    /// Parses `text`, which starts at `location` in its file.
    package static func parse(_ text: String, at location: SourceLocation) -> Result<Expr, Diagnostic> {
        let tokens: [Token]
        do {
            tokens = try Lexer.tokenize(text)
        } catch {
            return .failure(.error(location.advanced(by: error.offset), "bad expression `\(text)`: \(error.message)"))
        }
        // Bounds keep every later recursion (type checking, evaluation) far from the stack's end.
        if tokens.count > maxTokens {
            return .failure(
                .error(
                    location, "expression too long (\(tokens.count - 1) tokens; at most \(maxTokens - 1))",
                    hint: "split the logic over several transitions or choice states"))
        }
        var parser = State(tokens: tokens, text: text, base: location)
        do throws(Diagnostic) {
            let expr = try parser.parseOr()
            guard case .end = parser.current.kind else {
                let durationWords: Set<String> = [
                    "ms", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "hour", "hours",
                    "day", "days",
                ]
                if case .identifier(let word) = parser.current.kind, durationWords.contains(word.lowercased()) {
                    throw parser.failure(
                        "unexpected `\(word)` after a number",
                        hint: "write durations with a unit suffix and no space: 250ms, 60s, 16m, 1h, 90d")
                }
                throw parser.failure(
                    "unexpected \(parser.describe(parser.current)) after a complete expression",
                    hint: "join conditions with `&&` or `||`")
            }
            return .success(expr)
        } catch {
            return .failure(error)
        }
    }

    struct State {
        var tokens: [Token]
        var position = 0
        var depth = 0
        let text: String
        let base: SourceLocation

        var current: Token { tokens[position] }

        func location(_ token: Token) -> SourceLocation { base.advanced(by: token.offset) }

        func describe(_ token: Token) -> String {
            switch token.kind {
            case .number(let n): "number `\(JSONValue.format(n))`"
            case .string(let s): "string \"\(s)\""
            case .identifier(let s): "`\(s)`"
            case .op(let s): "`\(s)`"
            case .end: "end of expression"
            }
        }

        func failure(_ message: String, hint: String? = nil, at token: Token? = nil) -> Diagnostic {
            .error(location(token ?? current), "bad expression `\(text)`: \(message)", hint: hint)
        }

        mutating func advance() -> Token {
            let token = tokens[position]
            if position < tokens.count - 1 { position += 1 }
            return token
        }

        func isOp(_ op: String) -> Bool { current.kind == .op(op) }
        func isKeyword(_ word: String) -> Bool { current.kind == .identifier(word) }

        mutating func expect(_ op: String) throws(Diagnostic) {
            guard isOp(op) else { throw failure("expected `\(op)`, found \(describe(current))") }
            _ = advance()
        }

        mutating func parseOr() throws(Diagnostic) -> Expr {
            depth += 1
            defer { depth -= 1 }
            if depth > ExpressionParser.maxDepth {
                throw failure(
                    "nested more than \(ExpressionParser.maxDepth) levels deep", hint: "simplify the expression")
            }
            var lhs = try parseAnd()
            while isOp("||") {
                let op = advance()
                let rhs = try parseAnd()
                lhs = Expr(.binary(.or, lhs, rhs), at: location(op), text: text)
            }
            return lhs
        }

        mutating func parseAnd() throws(Diagnostic) -> Expr {
            var lhs = try parseNot()
            while isOp("&&") {
                let op = advance()
                let rhs = try parseNot()
                lhs = Expr(.binary(.and, lhs, rhs), at: location(op), text: text)
            }
            return lhs
        }

        mutating func parseNot() throws(Diagnostic) -> Expr {
            if isOp("!") {
                depth += 1
                defer { depth -= 1 }
                if depth > ExpressionParser.maxDepth { throw failure("too many `!` in a row") }
                let op = advance()
                let operand = try parseNot()
                return Expr(.unary(.not, operand), at: location(op), text: text)
            }
            return try parseComparison()
        }

        mutating func parseComparison() throws(Diagnostic) -> Expr {
            let lhs = try parseAdditive()
            let ops = ExpressionParser.comparisons
            if case .op(let symbol) = current.kind, let op = ops[symbol] {
                let token = advance()
                let rhs = try parseAdditive()
                if case .op(let next) = current.kind, ops[next] != nil {
                    throw failure("comparisons cannot be chained", hint: "write `a < b && b < c`")
                }
                return Expr(.binary(op, lhs, rhs), at: location(token), text: text)
            }
            if isKeyword("in") {
                let token = advance()
                let rhs = try parseAdditive()
                return Expr(.binary(.contains, lhs, rhs), at: location(token), text: text)
            }
            return lhs
        }

        mutating func parseAdditive() throws(Diagnostic) -> Expr {
            var lhs = try parseMultiplicative()
            while isOp("+") || isOp("-") {
                let token = advance()
                let rhs = try parseMultiplicative()
                lhs = Expr(
                    .binary(token.kind == .op("+") ? .add : .subtract, lhs, rhs), at: location(token), text: text)
            }
            return lhs
        }

        mutating func parseMultiplicative() throws(Diagnostic) -> Expr {
            var lhs = try parseUnary()
            while isOp("*") || isOp("/") || isOp("%") {
                let token = advance()
                let rhs = try parseUnary()
                let op: BinaryOp = token.kind == .op("*") ? .multiply : token.kind == .op("/") ? .divide : .remainder
                lhs = Expr(.binary(op, lhs, rhs), at: location(token), text: text)
            }
            return lhs
        }

        mutating func parseUnary() throws(Diagnostic) -> Expr {
            depth += 1
            defer { depth -= 1 }
            if depth > ExpressionParser.maxDepth * 2 { throw failure("too many `-` or `!` in a row") }
            if isOp("-") {
                let token = advance()
                let operand = try parseUnary()
                return Expr(.unary(.negate, operand), at: location(token), text: text)
            }
            if isOp("!") {
                let token = advance()
                let operand = try parseUnary()
                return Expr(.unary(.not, operand), at: location(token), text: text)
            }
            return try parsePostfix()
        }

        mutating func parsePostfix() throws(Diagnostic) -> Expr {
            var expr = try parsePrimary()
            while true {
                if isOp(".") {
                    _ = advance()
                    let token = current
                    guard case .identifier(let name) = token.kind else {
                        throw failure(
                            "expected a field name after `.`, found \(describe(token))",
                            hint: "use [\"…\"] for field names that are not identifiers")
                    }
                    _ = advance()
                    expr = Expr(.member(expr, name), at: location(token), text: text)
                } else if isOp("[") {
                    let token = advance()
                    let index = try parseOr()
                    try expect("]")
                    expr = Expr(.index(expr, index), at: location(token), text: text)
                } else {
                    return expr
                }
            }
        }

        mutating func parsePrimary() throws(Diagnostic) -> Expr {
            let token = current
            switch token.kind {
            case .number(let n):
                _ = advance()
                return Expr(.literal(.number(n)), at: location(token), text: text)
            case .string(let s):
                _ = advance()
                return Expr(.literal(.string(s)), at: location(token), text: text)
            case .identifier(let name):
                _ = advance()
                switch name {
                case "true": return Expr(.literal(.bool(true)), at: location(token), text: text)
                case "false": return Expr(.literal(.bool(false)), at: location(token), text: text)
                case "null": return Expr(.literal(.null), at: location(token), text: text)
                case "in": throw failure("expected a value before `in`", at: token)
                default: break
                }
                if isOp("(") {
                    _ = advance()
                    guard let function = Function(rawValue: name) else {
                        throw failure(
                            "unknown function `\(name)`",
                            hint: Suggestion.didYouMean(name, in: Function.allCases.map(\.rawValue))
                                ?? "functions: " + Function.allCases.map(\.rawValue).joined(separator: ", "),
                            at: token)
                    }
                    var args: [Expr] = []
                    if !isOp(")") {
                        // A comma separates two values: one before the first, or two in a row, is an error.
                        args.append(try parseOr())
                        while isOp(",") {
                            _ = advance()
                            args.append(try parseOr())
                        }
                    }
                    try expect(")")
                    guard function.arguments.contains(args.count) else {
                        throw failure("`\(name)` takes \(function.argumentsText), got \(args.count)", at: token)
                    }
                    var call = Expr(.call(function, args), at: location(token), text: text)
                    if function == .matches, case .literal(.string(let pattern)) = args[1].kind {
                        call.literalPattern = RegexCache.compile(pattern)
                    }
                    return call
                }
                if let root = Root(rawValue: name) {
                    return Expr(.root(root), at: location(token), text: text)
                }
                if name == Expr.elementName {
                    return Expr(.element, at: location(token), text: text)
                }
                return Expr(.variable(name), at: location(token), text: text)
            case .op("("):
                _ = advance()
                let inner = try parseOr()
                try expect(")")
                return inner
            case .op("["):
                _ = advance()
                var items: [Expr] = []
                if !isOp("]") {
                    items.append(try parseOr())
                    while isOp(",") {
                        _ = advance()
                        items.append(try parseOr())
                    }
                }
                try expect("]")
                return Expr(.list(items), at: location(token), text: text)
            case .end:
                throw failure(
                    position == 0 ? "the expression is empty" : "the expression ends too early",
                    hint: position == 0 ? nil : "something is missing after the last operator")
            case .op(let op):
                throw failure(
                    "unexpected `\(op)`",
                    hint: op == "," ? "a comma goes between two values: `len(body)`, `[1, 2]`" : nil)
            }
        }
    }
}
