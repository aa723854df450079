import Foundation
import FlowSpecLanguage

/// What an expression can see at one moment of a run. Async sources (inputs, the store) are read before
/// evaluation, so evaluation itself is plain synchronous code.
public struct Environment: Sendable {
    public var response: HTTPResponse?
    public var call: CallResult?
    public var inputs: [String: String] = [:]
    public var variables: [String: JSONValue] = [:]
    public var store: [String: JSONValue] = [:]
    public var vars: [String: JSONValue] = [:]
    public var now: Double = 0
    /// Where values that turn out to be secret while evaluating (a `totp` secret and its code) are registered,
    /// so they are masked in everything the run shows.
    public var redactor: Redactor?

    public struct CallResult: Sendable {
        public var outcome: String
        public var success: Bool
        public var reason: String
        public var outputs: [String: JSONValue]
    }

    public init() {}
}

public struct EvaluationError: Error, Sendable {
    public var location: SourceLocation
    public var message: String
    /// The run variable that was read but not set: the caller knows where it could have been given.
    public var unsetVariable: String?

    public init(location: SourceLocation, message: String, unsetVariable: String? = nil) {
        self.location = location
        self.message = message
        self.unsetVariable = unsetVariable
    }
}

public enum Evaluator {
    public static func evaluate(_ expr: Expr, _ env: Environment) throws(EvaluationError) -> JSONValue {
        switch expr.kind {
        case .literal(let value):
            return value
        case .variable(let name):
            guard let value = env.variables[name] else {
                throw EvaluationError(location: expr.location, message: "variable `\(name)` has not been set")
            }
            return value
        case .root(let root):
            return try rootValue(root, expr, env)
        case .member(let base, let name):
            if case .root(let root) = base.kind {
                switch root {
                case .inputs: return env.inputs[name].map(JSONValue.string) ?? .null
                case .store: return env.store[name] ?? .null
                case .vars:
                    guard let value = env.vars[name] else {
                        throw EvaluationError(location: expr.location, message: "run variable `\(name)` is not set", unsetVariable: name)
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
        }
    }

    public static func truth(_ expr: Expr, _ env: Environment) throws(EvaluationError) -> Bool {
        let value = try evaluate(expr, env)
        switch value {
        case .bool(let b): return b
        case .null: return false
        default:
            throw EvaluationError(location: expr.location, message: "`\(expr.text)` should be true or false, but it is the \(value.typeName) \(value.compactJSON.prefix(60))")
        }
    }

    static func rootValue(_ root: Root, _ expr: Expr, _ env: Environment) throws(EvaluationError) -> JSONValue {
        switch root {
        case .status: return env.response.map { .number(Double($0.status)) } ?? .null
        case .body: return env.response?.json ?? .null
        case .headers: return env.response?.headerObject ?? .object([:])
        case .now: return .number(env.now)
        case .outcome: return env.call.map { .string($0.outcome) } ?? .null
        case .success: return env.call.map { .bool($0.success) } ?? .null
        case .reason: return env.call.map { .string($0.reason) } ?? .null
        case .outputs: return env.call.map { .object($0.outputs) } ?? .null
        case .inputs: return .object(env.inputs.mapValues(JSONValue.string))
        case .store: return .object(env.store)
        case .vars: return .object(env.vars)
        }
    }

    static func number(_ expr: Expr, _ env: Environment, for op: String) throws(EvaluationError) -> Double {
        let value = try evaluate(expr, env)
        guard case .number(let n) = value else {
            throw EvaluationError(location: expr.location, message: "`\(op)` needs a number, but `\(expr.text)` is \(describe(value))")
        }
        return n
    }

    static func describe(_ value: JSONValue) -> String {
        value.isNull ? "null (missing)" : "the \(value.typeName) \(value.compactJSON.prefix(60))"
    }

    static func binary(_ op: BinaryOp, _ lhs: Expr, _ rhs: Expr, _ expr: Expr, _ env: Environment) throws(EvaluationError) -> JSONValue {
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
                throw EvaluationError(location: expr.location, message: "cannot compare \(describe(l)) with \(describe(r)) using `\(op.rawValue)`")
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
            default: throw EvaluationError(location: expr.location, message: "cannot add \(describe(l)) and \(describe(r))")
            }
        case .subtract: return .number(try number(lhs, env, for: "-") - number(rhs, env, for: "-"))
        case .multiply: return .number(try number(lhs, env, for: "*") * number(rhs, env, for: "*"))
        case .divide, .remainder:
            let a = try number(lhs, env, for: op.rawValue), b = try number(rhs, env, for: op.rawValue)
            guard b != 0 else { throw EvaluationError(location: expr.location, message: "division by zero in `\(expr.text)`") }
            return .number(op == .divide ? a / b : a.truncatingRemainder(dividingBy: b))
        case .contains:
            let needle = try evaluate(lhs, env), haystack = try evaluate(rhs, env)
            switch haystack {
            case .array(let items): return .bool(items.contains(needle))
            case .object(let fields): return .bool(needle.stringValue.map { fields[$0] != nil } ?? false)
            case .string(let s): return .bool(needle.stringValue.map { s.contains($0) } ?? false)
            case .null: return .bool(false)
            default: throw EvaluationError(location: expr.location, message: "`in` cannot look inside \(describe(haystack))")
            }
        }
    }

    static func call(_ function: Function, _ args: [Expr], _ expr: Expr, _ env: Environment) throws(EvaluationError) -> JSONValue {
        switch function {
        case .exists:
            return .bool(!(try evaluate(args[0], env)).isNull)
        case .len:
            let value = try evaluate(args[0], env)
            switch value {
            case .string(let s): return .number(Double(s.count))
            case .array(let a): return .number(Double(a.count))
            case .object(let o): return .number(Double(o.count))
            case .null: return .number(0)
            default: throw EvaluationError(location: expr.location, message: "`len` cannot measure \(describe(value))")
            }
        case .matches:
            let subject = try evaluate(args[0], env), pattern = try evaluate(args[1], env)
            guard case .string(let text) = subject else { return .bool(false) }
            guard case .string(let p) = pattern, let regex = RegexCache.compile(p) else {
                throw EvaluationError(location: args[1].location, message: "`matches` needs a valid regular expression, got \(describe(pattern))")
            }
            do {
                return .bool(try regex.firstMatch(in: text))
            } catch {
                throw EvaluationError(location: args[1].location, message: "`matches` gave up: \(error)")
            }
        case .lower, .upper:
            let value = try evaluate(args[0], env)
            guard case .string(let s) = value else { return value }
            return .string(function == .lower ? s.lowercased() : s.uppercased())
        case .string:
            return .string(try evaluate(args[0], env).interpolated)
        case .number:
            let value = try evaluate(args[0], env)
            switch value {
            case .number: return value
            case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces)).map(JSONValue.number) ?? .null
            case .bool(let b): return .number(b ? 1 : 0)
            default: return .null
            }
        case .slice:
            return try slice(args, env)
        case .jwt:
            let value = try evaluate(args[0], env)
            guard case .string(let token) = value else { return .null }
            return JWT.claims(token) ?? .null
        case .forgeJWT:
            return try forgeJWT(args, env)
        case .totp:
            return try totp(args, env)
        }
    }

    /// `totp(secret, digits = 6, period = 30, algorithm = "sha1")` at `now` (RFC 6238). The secret and the code
    /// are registered as secrets; messages never quote the secret.
    static func totp(_ args: [Expr], _ env: Environment) throws(EvaluationError) -> JSONValue {
        let secretValue = try evaluate(args[0], env)
        guard case .string(let secret) = secretValue else {
            throw EvaluationError(location: args[0].location, message: "`totp` needs the base32 secret as text, but `\(args[0].text)` is \(secretValue.isNull ? "null (missing)" : "a \(secretValue.typeName)")")
        }
        env.redactor?.register(secret)
        let key: [UInt8]
        switch TOTPRules.base32Decode(secret) {
        case .success(let bytes): key = bytes
        case .failure(let problem): throw EvaluationError(location: args[0].location, message: problem.message)
        }
        func whole(_ index: Int, _ fallback: Int, _ problem: (Double) -> String?) throws(EvaluationError) -> Int {
            guard index < args.count else { return fallback }
            let value = try evaluate(args[index], env)
            // NaN breaks every rule, so a value that is not a number gets the rule's own message.
            let n = value.numberValue ?? .nan
            if let rule = problem(n) {
                throw EvaluationError(location: args[index].location, message: "\(rule), not \(describe(value))")
            }
            return Int(n)
        }
        let digits = try whole(1, TOTPRules.defaultDigits, TOTPRules.digitsProblem)
        let period = try whole(2, TOTPRules.defaultPeriod, TOTPRules.periodProblem)
        var algorithm = TOTP.Algorithm.sha1
        if args.count > 3 {
            let value = try evaluate(args[3], env)
            guard case .string(let name) = value, let known = TOTPRules.algorithm(name).flatMap(TOTP.Algorithm.init(rawValue:)) else {
                throw EvaluationError(location: args[3].location, message: TOTPRules.algorithmProblem + ", not \(describe(value))")
            }
            algorithm = known
        }
        let code = TOTP.code(key: key, at: env.now, digits: digits, period: period, algorithm: algorithm)
        env.redactor?.register(code)
        return .string(code)
    }

    /// `slice(text, start, end)`: the characters from `start` up to (not including) `end`, counted from the end when
    /// negative, rounded down and kept within the text. Missing text (null) stays null.
    static func slice(_ args: [Expr], _ env: Environment) throws(EvaluationError) -> JSONValue {
        let subject = try evaluate(args[0], env)
        if subject.isNull { return .null }
        guard case .string(let text) = subject else {
            throw EvaluationError(location: args[0].location, message: "`slice` takes text, but `\(args[0].text)` is \(describe(subject))")
        }
        var bounds: [Double] = []
        for arg in args.dropFirst() {
            let value = try evaluate(arg, env)
            guard let n = value.numberValue, n.isFinite else {
                throw EvaluationError(location: arg.location, message: "`slice` takes character positions as numbers, not \(describe(value))")
            }
            bounds.append(n)
        }
        let sliced = text.sliced(from: bounds[0], to: bounds.count > 1 ? bounds[1] : nil)
        // A piece of a secret is still one: a truncated token must be masked like the token.
        if let redactor = env.redactor, redactor.isSecret(text) { redactor.register(sliced) }
        return .string(sliced)
    }

    /// `forge_jwt(token, way)`: the token forged as `JWT.Forgery` says; an error when it is not a JWT. The forged
    /// token is registered as a secret, like the token it comes from.
    static func forgeJWT(_ args: [Expr], _ env: Environment) throws(EvaluationError) -> JSONValue {
        let tokenValue = try evaluate(args[0], env), wayValue = try evaluate(args[1], env)
        guard case .string(let name) = wayValue, let way = JWTForgery(rawValue: name) else {
            throw EvaluationError(location: args[1].location, message: "`forge_jwt` forges one of \(JWTForgery.namesText), not \(describe(wayValue))")
        }
        guard case .string(let token) = tokenValue, let forged = JWT.forge(token, way) else {
            throw EvaluationError(location: args[0].location,
                                  message: "`forge_jwt` needs a JWT (three base64url parts, the first two JSON objects), but `\(args[0].text)` is \(tokenValue.isNull ? "null (missing)" : "not one")")
        }
        env.redactor?.register(forged)
        return .string(forged)
    }

    /// Renders a template to text.
    public static func render(_ template: Template, _ env: Environment) throws(EvaluationError) -> String {
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
    public static func value(_ template: Template, _ env: Environment) throws(EvaluationError) -> JSONValue {
        if let single = template.singleExpression { return try evaluate(single, env) }
        return .string(try render(template, env))
    }

    public static func value(_ template: TemplateValue, _ env: Environment) throws(EvaluationError) -> JSONValue {
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
