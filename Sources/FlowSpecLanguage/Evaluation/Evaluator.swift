import Foundation

/// The flow language's semantics: one evaluator for every expression a run, a check or a generated scenario
/// evaluates. It reads through an `EvaluationScope`, so it is plain synchronous code with no I/O: async sources
/// (inputs, the store) are read by the caller before evaluation.
package enum Evaluator {
    package static func evaluate(_ expr: Expr, _ env: some EvaluationScope) throws(EvaluationError) -> JSONValue {
        switch expr.kind {
        case .literal(let value):
            return value
        case .variable(let name):
            guard let value = env.value(of: .variable(name)) else {
                throw EvaluationError(location: expr.location, message: "variable `\(name)` has not been set")
            }
            return value
        case .root(let root):
            return try read(.root(root), expr, env)
        case .member(let base, let name):
            if case .root(let root) = base.kind {
                switch root {
                case .inputs: return try read(.input(name), expr, env)
                case .store: return try read(.store(name), expr, env)
                case .vars:
                    guard let value = env.value(of: .runVariable(name)) else {
                        throw EvaluationError(
                            location: expr.location, message: "run variable `\(name)` is not set", unsetVariable: name)
                    }
                    return value
                default: break
                }
            }
            return try evaluate(base, env)[name]
        case .index(let base, let indexExpr):
            let value = try evaluate(base, env)
            let index = try evaluate(indexExpr, env)
            return value.indexed(by: index, lowercasingKey: base.isHeadersRoot)
        case .unary(.not, let operand):
            return .bool(!(try truth(operand, env)))
        case .unary(.negate, let operand):
            return .number(-(try number(operand, env, for: "-")))
        case .binary(let op, let lhs, let rhs):
            return try binary(op, lhs, rhs, expr, env)
        case .call(let function, let args):
            return try call(function, args, expr, env)
        case .list(let items):
            var values: [JSONValue] = []
            for item in items { values.append(try evaluate(item, env)) }
            return .array(values)
        case .element:
            // The type checker refuses `it` outside a list function, so only an unchecked expression gets here.
            guard let element = env.listElement else {
                throw EvaluationError(
                    location: expr.location, message: "`it` is only defined inside a list function's second argument")
            }
            return element.value
        }
    }

    package static func truth(_ expr: Expr, _ env: some EvaluationScope) throws(EvaluationError) -> Bool {
        let value = try evaluate(expr, env)
        switch value {
        case .bool(let b): return b
        case .null: return false
        default:
            throw EvaluationError(
                location: expr.location,
                message:
                    "`\(expr.text)` should be true or false, but it is the \(value.typeName) \(value.compactJSON.prefix(60))"
            )
        }
    }

    /// A read no full scope misses: only a partial one (the scenario generator's) answers nil.
    static func read(_ what: ExpressionRead, _ expr: Expr, _ env: some EvaluationScope) throws(EvaluationError)
        -> JSONValue
    {
        guard let value = env.value(of: what) else {
            throw EvaluationError(location: expr.location, message: "`\(expr.text)` is not known here")
        }
        return value
    }

    static func number(_ expr: Expr, _ env: some EvaluationScope, for op: String) throws(EvaluationError) -> Double {
        let value = try evaluate(expr, env)
        guard case .number(let n) = value else {
            throw EvaluationError(
                location: expr.location, message: "`\(op)` needs a number, but `\(expr.text)` is \(describe(value))")
        }
        return n
    }

    static func describe(_ value: JSONValue) -> String {
        value.isNull ? "null (missing)" : "the \(value.typeName) \(value.compactJSON.prefix(60))"
    }

    static func binary(_ op: BinaryOp, _ lhs: Expr, _ rhs: Expr, _ expr: Expr, _ env: some EvaluationScope)
        throws(EvaluationError) -> JSONValue
    {
        switch op {
        case .and: return .bool(try truth(lhs, env) ? try truth(rhs, env) : false)
        case .or: return .bool(try truth(lhs, env) ? true : try truth(rhs, env))
        case .equal: return .bool(try evaluate(lhs, env) == evaluate(rhs, env))
        case .notEqual: return .bool(try evaluate(lhs, env) != evaluate(rhs, env))
        case .less, .lessEqual, .greater, .greaterEqual:
            let l = try evaluate(lhs, env), r = try evaluate(rhs, env)
            let order: Int
            switch (l, r) {
            case (.number(let a), .number(let b)): order = a < b ? -1 : a > b ? 1 : 0
            case (.string(let a), .string(let b)): order = a < b ? -1 : a > b ? 1 : 0
            default:
                throw EvaluationError(
                    location: expr.location,
                    message: "cannot compare \(describe(l)) with \(describe(r)) using `\(op.rawValue)`")
            }
            switch op {
            case .less: return .bool(order < 0)
            case .lessEqual: return .bool(order <= 0)
            case .greater: return .bool(order > 0)
            default: return .bool(order >= 0)
            }
        case .add:
            let l = try evaluate(lhs, env), r = try evaluate(rhs, env)
            switch (l, r) {
            case (.number(let a), .number(let b)): return .number(a + b)
            case (.string(let a), .string(let b)): return .string(a + b)
            default:
                throw EvaluationError(location: expr.location, message: "cannot add \(describe(l)) and \(describe(r))")
            }
        case .subtract: return .number(try number(lhs, env, for: "-") - number(rhs, env, for: "-"))
        case .multiply: return .number(try number(lhs, env, for: "*") * number(rhs, env, for: "*"))
        case .divide, .remainder:
            let a = try number(lhs, env, for: op.rawValue), b = try number(rhs, env, for: op.rawValue)
            guard b != 0 else {
                throw EvaluationError(location: expr.location, message: "division by zero in `\(expr.text)`")
            }
            return .number(op == .divide ? a / b : a.truncatingRemainder(dividingBy: b))
        case .contains:
            let needle = try evaluate(lhs, env), haystack = try evaluate(rhs, env)
            switch haystack {
            case .array(let items): return .bool(items.contains(needle))
            case .object(let fields): return .bool(needle.stringValue.map { fields[$0] != nil } ?? false)
            case .string(let s): return .bool(needle.stringValue.map { s.contains($0) } ?? false)
            case .null: return .bool(false)
            default:
                throw EvaluationError(location: expr.location, message: "`in` cannot look inside \(describe(haystack))")
            }
        }
    }

    /// Renders a template to text.
    package static func render(_ template: Template, _ env: some EvaluationScope) throws(EvaluationError) -> String {
        var out = ""
        for part in template.parts {
            switch part {
            case .text(let t): out += t
            case .expr(let e): out += try evaluate(e, env).interpolated
            }
        }
        return out
    }

    /// A template as a JSON value: `"${expr}"` alone keeps the expression's type.
    package static func value(_ template: Template, _ env: some EvaluationScope) throws(EvaluationError) -> JSONValue {
        if let single = template.singleExpression { return try evaluate(single, env) }
        return .string(try render(template, env))
    }

    package static func value(_ template: TemplateValue, _ env: some EvaluationScope) throws(EvaluationError)
        -> JSONValue
    {
        switch template {
        case .literal(let v): return v
        case .template(let t): return try value(t, env)
        case .array(let items):
            var out: [JSONValue] = []
            for item in items { out.append(try value(item, env)) }
            return .array(out)
        case .object(let fields):
            var out: [String: JSONValue] = [:]
            for (key, item) in fields { out[key] = try value(item, env) }
            return .object(out)
        }
    }
}
