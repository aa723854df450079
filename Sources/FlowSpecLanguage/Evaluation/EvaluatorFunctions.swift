import Foundation

/// The flow language's functions (`exists`, `len`, `matches`, `jwt_claim`, `totp`, `slice`, `forge_jwt`…): each
/// evaluates its arguments and checks their types at run time, for values no load-time check can know.
extension Evaluator {
    static func call(_ function: Function, _ args: [Expr], _ expr: Expr, _ env: some EvaluationScope)
        throws(EvaluationError) -> JSONValue
    {
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
            guard case .string(let p) = pattern, let regex = expr.literalPattern ?? RegexCache.compile(p) else {
                throw EvaluationError(
                    location: args[1].location,
                    message: "`matches` needs a valid regular expression, got \(describe(pattern))")
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
        case .any, .all, .count, .filter, .first, .map:
            return try listCall(function, args, expr, env)
        }
    }

    /// `totp(secret, digits = 6, period = 30, algorithm = "sha1")` at `now` (RFC 6238). The secret and the code
    /// are registered as secrets; messages never quote the secret.
    static func totp(_ args: [Expr], _ env: some EvaluationScope) throws(EvaluationError) -> JSONValue {
        let secretValue = try evaluate(args[0], env)
        guard case .string(let secret) = secretValue else {
            throw EvaluationError(
                location: args[0].location,
                message:
                    "`totp` needs the base32 secret as text, but `\(args[0].text)` is \(secretValue.isNull ? "null (missing)" : "a \(secretValue.typeName)")"
            )
        }
        env.sawSecret(secret)
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
            guard case .string(let name) = value,
                let known = TOTPRules.algorithm(name).flatMap(TOTP.Algorithm.init(rawValue:))
            else {
                throw EvaluationError(
                    location: args[3].location, message: TOTPRules.algorithmProblem + ", not \(describe(value))")
            }
            algorithm = known
        }
        let code = TOTP.code(
            key: key, at: try read(.root(.now), args[0], env).numberValue ?? 0, digits: digits, period: period,
            algorithm: algorithm)
        env.sawSecret(code)
        return .string(code)
    }

    /// `slice(text, start, end)`: the characters from `start` up to (not including) `end`, counted from the end when
    /// negative, rounded down and kept within the text. Missing text (null) stays null.
    static func slice(_ args: [Expr], _ env: some EvaluationScope) throws(EvaluationError) -> JSONValue {
        let subject = try evaluate(args[0], env)
        if subject.isNull { return .null }
        guard case .string(let text) = subject else {
            throw EvaluationError(
                location: args[0].location, message: "`slice` takes text, but `\(args[0].text)` is \(describe(subject))"
            )
        }
        var bounds: [Double] = []
        for arg in args.dropFirst() {
            let value = try evaluate(arg, env)
            guard let n = value.numberValue, n.isFinite else {
                throw EvaluationError(
                    location: arg.location,
                    message: "`slice` takes character positions as numbers, not \(describe(value))")
            }
            bounds.append(n)
        }
        let sliced = text.sliced(from: bounds[0], to: bounds.count > 1 ? bounds[1] : nil)
        // A piece of a secret is still one: a truncated token must be masked like the token.
        if env.isSecret(text) { env.sawSecret(sliced) }
        return .string(sliced)
    }

    /// `forge_jwt(token, way)`: the token forged as `JWT.Forgery` says; an error when it is not a JWT. The forged
    /// token is registered as a secret, like the token it comes from.
    static func forgeJWT(_ args: [Expr], _ env: some EvaluationScope) throws(EvaluationError) -> JSONValue {
        let tokenValue = try evaluate(args[0], env), wayValue = try evaluate(args[1], env)
        guard case .string(let name) = wayValue, let way = JWTForgery(rawValue: name) else {
            throw EvaluationError(
                location: args[1].location,
                message: "`forge_jwt` forges one of \(JWTForgery.namesText), not \(describe(wayValue))")
        }
        guard case .string(let token) = tokenValue, let forged = JWT.forge(token, way) else {
            throw EvaluationError(
                location: args[0].location,
                message:
                    "`forge_jwt` needs a JWT (three base64url parts, the first two JSON objects), but `\(args[0].text)` is \(tokenValue.isNull ? "null (missing)" : "not one")"
            )
        }
        env.sawSecret(forged)
        return .string(forged)
    }
}
