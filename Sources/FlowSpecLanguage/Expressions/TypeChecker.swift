/// What is known about an expression's value before running it.
package enum ExprType: String, Sendable {
    case any, number, string, boolean, null, object, list

    static func of(_ value: JSONValue) -> ExprType {
        switch value {
        case .null: .null
        case .bool: .boolean
        case .number: .number
        case .string: .string
        case .array: .list
        case .object: .object
        }
    }
}

/// Where an expression appears decides which roots it may read.
package struct ExprContext: Sendable {
    package var place: String
    package var hasResponse: Bool
    package var hasCallResult: Bool
    package var declaredInputs: Set<String>

    package init(place: String, hasResponse: Bool = false, hasCallResult: Bool = false, declaredInputs: Set<String>) {
        self.place = place
        self.hasResponse = hasResponse
        self.hasCallResult = hasCallResult
        self.declaredInputs = declaredInputs
    }
}

/// Catches, at load time, the mistakes that would otherwise only show while talking to a backend.
package enum TypeChecker {
    @discardableResult
    package static func check(_ expr: Expr, in context: ExprContext, into diagnostics: inout Diagnostics) -> ExprType {
        var checker = Checker(context: context)
        let type = checker.type(of: expr)
        diagnostics.append(contentsOf: checker.diagnostics)
        return type
    }

    /// A guard must be able to be true or false.
    package static func checkCondition(_ expr: Expr, in context: ExprContext, into diagnostics: inout Diagnostics) {
        let type = check(expr, in: context, into: &diagnostics)
        if type != .boolean, type != .any {
            diagnostics.error(
                expr.location, "a condition must be true or false, but `\(expr.text)` is a \(type.rawValue)",
                hint: type == .number
                    ? "compare it, e.g. `\(expr.text) == 200`" : "compare it with `==`, or test it with `exists(...)`")
        }
    }

    struct Checker {
        let context: ExprContext
        var diagnostics = Diagnostics()
        /// How many list functions' second arguments enclose the node being checked: `it` needs at least one.
        var listDepth = 0

        mutating func error(_ expr: Expr, _ message: String, hint: String? = nil) {
            diagnostics.error(expr.location, message, hint: hint)
        }

        mutating func type(of expr: Expr) -> ExprType {
            switch expr.kind {
            case .literal(let value):
                return .of(value)
            case .variable:
                return .any
            case .root(let root):
                return rootType(root, expr)
            case .member(let base, let name):
                if case .root(let root) = base.kind, root == .inputs {
                    if !context.declaredInputs.contains(name) {
                        error(
                            expr, "undeclared input `\(name)`",
                            hint: Suggestion.didYouMean(name, in: context.declaredInputs)
                                ?? "declare it under `inputs:`")
                    }
                    return .string
                }
                if case .root(let root) = base.kind, root == .store || root == .vars { return .any }
                let baseType = type(of: base)
                if case .root(let root) = base.kind, [.body, .outputs, .headers].contains(root) { return .any }
                switch baseType {
                case .any, .object: return .any
                case .null: return .null
                default:
                    error(expr, "`\(name)` cannot be read from a \(baseType.rawValue)")
                    return .any
                }
            case .index(let base, let index):
                let baseType = type(of: base)
                let indexType = type(of: index)
                switch baseType {
                case .list where indexType != .number && indexType != .any:
                    error(index, "a list is indexed by a number, not a \(indexType.rawValue)")
                case .object where indexType != .string && indexType != .any:
                    error(index, "an object is indexed by a string, not a \(indexType.rawValue)")
                case .number, .boolean, .string:
                    error(expr, "a \(baseType.rawValue) cannot be indexed")
                default: break
                }
                return .any
            case .unary(.not, let operand):
                let t = type(of: operand)
                if t != .boolean, t != .any {
                    error(
                        operand, "`!` needs true or false, but this is a \(t.rawValue)",
                        hint: "to test presence, write `!exists(\(operand.text))`")
                }
                return .boolean
            case .unary(.negate, let operand):
                let t = type(of: operand)
                if t != .number, t != .any { error(operand, "`-` needs a number, but this is a \(t.rawValue)") }
                return .number
            case .binary(let op, let lhs, let rhs):
                return binaryType(op, lhs, rhs, expr)
            case .call(let function, let args):
                return callType(function, args, expr)
            case .list(let items):
                for item in items { _ = type(of: item) }
                return .list
            case .element:
                if listDepth == 0 {
                    error(
                        expr,
                        "`it` is only defined inside a list function, as the element its second argument looks at",
                        hint: "e.g. `any(body.items, it.id == 1)`; `it` can be used in the second argument of "
                            + Function.listFunctions.map(\.rawValue).joined(separator: ", "))
                }
                return .any
            }
        }

        mutating func rootType(_ root: Root, _ expr: Expr) -> ExprType {
            switch root {
            case .status, .body, .headers:
                if !context.hasResponse {
                    error(
                        expr,
                        "`\(root.rawValue)` is only available where there is a response (the `on:` transitions of a request state), not in \(context.place)"
                    )
                }
                return root == .status ? .number : root == .headers ? .object : .any
            case .outcome, .success, .reason, .outputs:
                if !context.hasCallResult {
                    error(
                        expr,
                        "`\(root.rawValue)` is only available in the `on:` transitions of a call state, not in \(context.place)"
                    )
                }
                switch root {
                case .outcome, .reason: return .string
                case .success: return .boolean
                default: return .object
                }
            case .now: return .number
            case .inputs, .store, .vars:
                error(
                    expr,
                    "`\(root.rawValue)` must be followed by a name, e.g. `\(root.rawValue).\(root == .inputs ? "email" : root == .store ? "access_token" : "repairminder_url")`"
                )
                return .object
            }
        }

        mutating func binaryType(_ op: BinaryOp, _ lhs: Expr, _ rhs: Expr, _ expr: Expr) -> ExprType {
            let l = type(of: lhs)
            let r = type(of: rhs)
            let known: (ExprType) -> Bool = { $0 != .any && $0 != .null }
            switch op {
            case .and, .or:
                for (side, t) in [(lhs, l), (rhs, r)] where t != .boolean && t != .any {
                    error(
                        side,
                        "`\(op.rawValue)` needs true or false on both sides, but `\(side.text)` is a \(t.rawValue)")
                }
                return .boolean
            case .equal, .notEqual:
                if known(l), known(r), l != r {
                    error(
                        expr,
                        "comparing a \(l.rawValue) with a \(r.rawValue) is always \(op == .equal ? "false" : "true")",
                        hint: l == .number || r == .number ? "drop the quotes: numbers are written without them" : nil)
                }
                return .boolean
            case .less, .lessEqual, .greater, .greaterEqual:
                for (side, t) in [(lhs, l), (rhs, r)] where t != .number && t != .string && t != .any {
                    error(side, "`\(op.rawValue)` compares numbers or strings, but `\(side.text)` is a \(t.rawValue)")
                }
                if known(l), known(r), l != r { error(expr, "cannot order a \(l.rawValue) against a \(r.rawValue)") }
                return .boolean
            case .add:
                if known(l), known(r), l != r {
                    error(
                        expr, "cannot add a \(l.rawValue) and a \(r.rawValue)",
                        hint: "convert with string(...) or number(...)")
                    return .any
                }
                if l == .number || r == .number { return .number }
                if l == .string || r == .string { return .string }
                if known(l), l != .number, l != .string {
                    error(lhs, "`+` adds numbers or joins strings, not a \(l.rawValue)")
                }
                return .any
            case .subtract, .multiply, .divide, .remainder:
                for (side, t) in [(lhs, l), (rhs, r)] where t != .number && t != .any {
                    error(side, "`\(op.rawValue)` needs numbers, but `\(side.text)` is a \(t.rawValue)")
                }
                return .number
            case .contains:
                if [.number, .boolean, .null].contains(r) {
                    error(rhs, "`in` looks inside a list, an object or a string, not a \(r.rawValue)")
                }
                return .boolean
            }
        }

        mutating func callType(_ function: Function, _ args: [Expr], _ expr: Expr) -> ExprType {
            if function.isListFunction { return listCallType(function, args) }
            let types = args.map { type(of: $0) }
            switch function {
            case .any, .all, .count, .filter, .first, .map:
                return .any // checked by `listCallType` above, which defines `it` for the second argument
            case .exists:
                return .boolean
            case .len:
                if [.number, .boolean].contains(types[0]) {
                    error(args[0], "`len` measures a string, list or object, not a \(types[0].rawValue)")
                }
                return .number
            case .matches:
                for (arg, t) in zip(args, types) where t != .string && t != .any {
                    error(arg, "`matches` takes strings, but `\(arg.text)` is a \(t.rawValue)")
                }
                if case .literal(.string(let pattern)) = args[1].kind, RegexCache.compile(pattern) == nil {
                    error(args[1], "invalid regular expression \"\(pattern)\"")
                }
                return .boolean
            case .lower, .upper:
                if types[0] != .string, types[0] != .any {
                    error(args[0], "`\(function.rawValue)` takes a string, not a \(types[0].rawValue)")
                }
                return .string
            case .string: return .string
            case .number: return .number
            case .jwt:
                if types[0] != .string, types[0] != .any {
                    error(args[0], "`jwt` takes a token string, not a \(types[0].rawValue)")
                }
                return .object
            case .slice:
                if types[0] != .string, types[0] != .any, types[0] != .null {
                    error(args[0], "`slice` takes text, not a \(types[0].rawValue)")
                }
                for (arg, t) in zip(args, types).dropFirst() where t != .number && t != .any {
                    error(
                        arg, "`slice` takes character positions as numbers, but `\(arg.text)` is a \(t.rawValue)",
                        hint: "e.g. slice(token, 0, len(token) / 2)")
                }
                return .string
            case .forgeJWT:
                if types[0] != .string, types[0] != .any {
                    error(args[0], "`forge_jwt` takes a token string, not a \(types[0].rawValue)")
                }
                if types[1] != .string, types[1] != .any {
                    error(args[1], "`forge_jwt` takes the way to forge as text, not a \(types[1].rawValue)")
                }
                if case .literal(.string(let way)) = args[1].kind, !JWTForgery.names.contains(way) {
                    error(
                        args[1], "`forge_jwt` forges one of \(JWTForgery.namesText), not \"\(way)\"",
                        hint: Suggestion.didYouMean(way, in: JWTForgery.names))
                }
                return .string
            case .totp:
                checkTOTP(args, types)
                return .string
            }
        }

        /// `any(list, condition)` and the other list functions: the first argument must be able to be a list, the
        /// second is checked with `it` defined, and must be a condition except for `map`.
        mutating func listCallType(_ function: Function, _ args: [Expr]) -> ExprType {
            let name = function.rawValue
            let listType = type(of: args[0])
            if ![.list, .any, .null].contains(listType) {
                error(
                    args[0],
                    "`\(name)` looks through a list, but its first argument is a\(listType == .object ? "n" : "") \(listType.rawValue)",
                    hint: listType == .object
                        ? "name the list inside the object, e.g. `\(name)(body.data.items, …)`"
                        : listType == .string
                            ? "to search text, use `\"word\" in text` or `matches(text, \"re\")`" : nil)
            }
            if args.count > 1 {
                listDepth += 1
                let elementType = type(of: args[1])
                listDepth -= 1
                if function != .map, elementType != .boolean, elementType != .any {
                    error(
                        args[1],
                        "`\(name)` needs a condition on each element (true or false), but its second argument is a\(elementType == .object ? "n" : "") \(elementType.rawValue)",
                        hint: "compare the element `it`, e.g. `\(name)(body.items, it.id == \"mfa\")`")
                } else if !args[1].readsFreeElement, !args[1].isLiteral {
                    // `any(body.flows, body.id == "mfa")` meant `it.id`: the same answer for every element is rarely meant.
                    diagnostics.warning(
                        args[1].location,
                        "the second argument of `\(name)` does not read `it`, so it is the same for every element",
                        hint: "`it` is the element, e.g. `\(name)(body.items, it.id == \"mfa\")`")
                }
            }
            switch function {
            case .any, .all: return .boolean
            case .count: return .number
            case .filter, .map: return .list
            default: return .any
            }
        }

        /// `totp(secret, digits, period, algorithm)`: each argument's type, and literal values against `TOTPRules`.
        mutating func checkTOTP(_ args: [Expr], _ types: [ExprType]) {
            let expected: [ExprType] = [.string, .number, .number, .string]
            let names = [
                "the base32 secret as text", "the number of digits", "the period in seconds", "the algorithm as text",
            ]
            for (index, (arg, t)) in zip(args, types).enumerated() where t != expected[index] && t != .any {
                error(
                    arg, "`totp` takes \(names[index]), not a \(t.rawValue)",
                    hint: index == 0 ? nil : "e.g. totp(secret, 8, 30, \"sha256\")")
            }
            for (index, arg) in args.enumerated() {
                switch (index, arg.kind) {
                case (0, .literal(.string(let secret))):
                    if case .failure(let problem) = TOTPRules.base32Decode(secret) { error(arg, problem.message) }
                case (1, .literal(.number(let n))):
                    if let problem = TOTPRules.digitsProblem(n) { error(arg, problem) }
                case (2, .literal(.number(let n))):
                    if let problem = TOTPRules.periodProblem(n) { error(arg, problem) }
                case (3, .literal(.string(let name))):
                    if TOTPRules.algorithm(name) == nil { error(arg, TOTPRules.algorithmProblem) }
                default: break
                }
            }
        }
    }
}
