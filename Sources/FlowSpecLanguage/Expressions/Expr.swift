/// A parsed expression. Built once at load time; the runtime only evaluates it.
package struct Expr: Sendable {
    package indirect enum Kind: Sendable {
        case literal(JSONValue)
        case root(Root)
        /// A flow variable, read by its bare name.
        case variable(String)
        case member(Expr, String)
        case index(Expr, Expr)
        case unary(UnaryOp, Expr)
        case binary(BinaryOp, Expr, Expr)
        case call(Function, [Expr])
        case list([Expr])
        /// `it`: the element a list function (`any`, `map`, …) is looking at, in its second argument. Nested list
        /// functions each have their own; the innermost one wins.
        case element
    }

    /// The name of the list element in a list function's second argument.
    package static let elementName = "it"

    package var kind: Kind
    package var location: SourceLocation
    /// The source text, for messages.
    package var text: String
    /// `matches(s, "literal")`'s pattern, compiled once when the expression is parsed rather than by ICU at every
    /// evaluation; nil for any other expression, and for a pattern computed at run time.
    package var literalPattern: CompiledRegex?

    package init(_ kind: Kind, at location: SourceLocation, text: String = "") {
        self.kind = kind
        self.location = location
        self.text = text
    }
}

/// Names with a fixed meaning; everything else bare is a flow variable.
package enum Root: String, Sendable, CaseIterable {
    case status, body, headers, now
    case inputs, store, vars
    case outcome, success, reason, outputs
}

extension Root {
    /// Names a flow variable cannot have: the roots, and `it`, which list functions give their element. Reserving
    /// `it` keeps `any(body.items, it.id == 1)` meaning the element whatever variables a flow sets.
    package static func isReserved(_ name: String) -> Bool { Root(rawValue: name) != nil || name == Expr.elementName }

    package static var reservedNames: [String] { allCases.map(\.rawValue) + [Expr.elementName] }
}

package enum UnaryOp: String, Sendable { case not = "!", negate = "-" }

package enum BinaryOp: String, Sendable {
    case or = "||", and = "&&"
    case equal = "==", notEqual = "!="
    case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case contains = "in"
}

package enum Function: String, Sendable, CaseIterable {
    case exists, len, matches, lower, upper, string, number, slice, jwt, totp
    case forgeJWT = "forge_jwt"
    case any, all, count, filter, first, map

    /// The list functions: their first argument is a list, their second is evaluated once per element, which
    /// it reads as `it`.
    package static let listFunctions: [Function] = [.any, .all, .count, .filter, .first, .map]

    package var isListFunction: Bool { Self.listFunctions.contains(self) }

    /// How many arguments a call may have (`totp(secret)` up to `totp(secret, digits, period, algorithm)`).
    package var arguments: ClosedRange<Int> {
        switch self {
        case .matches, .forgeJWT, .any, .all, .count, .filter, .map: 2...2
        case .slice: 2...3
        case .first: 1...2
        case .totp: 1...4
        default: 1...1
        }
    }

    /// The fewest arguments a call takes.
    package var arity: Int { arguments.lowerBound }

    /// "1 argument", "1 to 4 arguments": for messages.
    package var argumentsText: String {
        let most = arguments.upperBound
        if arguments.lowerBound == most { return "\(most) argument\(most == 1 ? "" : "s")" }
        return "\(arguments.lowerBound) to \(most) arguments"
    }
}

extension Expr {
    /// A literal value (`true`, `1`, `"x"`), not a list literal.
    package var isLiteral: Bool {
        if case .literal = kind { return true }
        return false
    }

    /// `headers`, whose keys are case-insensitive (`headers["X-Request-Id"]`).
    package var isHeadersRoot: Bool {
        if case .root(.headers) = kind { return true }
        return false
    }

    /// Every flow variable this expression reads, with where.
    package var variableReads: [(String, SourceLocation)] {
        var out: [(String, SourceLocation)] = []
        visit { if case .variable(let name) = $0.kind { out.append((name, $0.location)) } }
        return out
    }

    /// Every `inputs.NAME` this expression reads.
    package var inputReads: [(String, SourceLocation)] { memberReads(of: .inputs) }
    package var storeReads: [(String, SourceLocation)] { memberReads(of: .store) }
    package var varsReads: [(String, SourceLocation)] { memberReads(of: .vars) }

    func memberReads(of root: Root) -> [(String, SourceLocation)] {
        var out: [(String, SourceLocation)] = []
        visit { node in
            if case .member(let base, let name) = node.kind, case .root(root) = base.kind {
                out.append((name, node.location))
            }
        }
        return out
    }

    package var roots: [(Root, SourceLocation)] {
        var out: [(Root, SourceLocation)] = []
        visit { if case .root(let r) = $0.kind { out.append((r, $0.location)) } }
        return out
    }

    package func visit(_ body: (Expr) -> Void) {
        body(self)
        switch kind {
        case .literal, .root, .variable, .element: break
        case .member(let base, _): base.visit(body)
        case .index(let base, let index): base.visit(body); index.visit(body)
        case .unary(_, let operand): operand.visit(body)
        case .binary(_, let lhs, let rhs): lhs.visit(body); rhs.visit(body)
        case .call(_, let args): args.forEach { $0.visit(body) }
        case .list(let items): items.forEach { $0.visit(body) }
        }
    }
}
