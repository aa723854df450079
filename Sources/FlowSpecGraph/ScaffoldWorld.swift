import FlowSpecLanguage

/// What a scaffolded scenario knows at one point of a path: the response it scripts, the flow variables it can
/// compute, the token store it set up, the inputs it gives. Expressions are evaluated three-valued: a value
/// when everything they read is known, nil when anything is not (a variable set from an unknown expression,
/// a sub-flow's outputs, a run variable), so a guess is never presented as certain.
public struct ScaffoldWorld: Sendable {
    /// The virtual clock a scripted scenario starts at (ScenarioDecoder's default `clock:`).
    public static let defaultClock = VirtualTime.defaultStart

    public var status: Int?
    public var body: JSONValue = .null
    /// Response headers, lowercased names.
    public var headers: [String: String] = [:]
    public var variables: [String: JSONValue] = [:]
    /// The flow namespace's store: keys missing from it (and from `unknownStore`) are absent.
    public var store: [String: JSONValue] = [:]
    public var unknownStore: Set<String> = []
    public var inputs: [String: String] = [:]
    /// Run variables the scenario gives in `vars:`.
    public var vars: [String: JSONValue] = [:]
    public var now = ScaffoldWorld.defaultClock
    /// How the last `call` ended.
    public var call: (outcome: String, success: Bool)?

    public init() {}

    /// The expression's value, or nil when it depends on something unknown (or would fail at run time).
    public func evaluate(_ expr: Expr) -> JSONValue? {
        switch expr.kind {
        case .literal(let value): return value
        case .variable(let name): return variables[name]
        case .root(let root):
            switch root {
            case .status: return status.map { .number(Double($0)) } ?? .null
            case .body: return body
            case .headers: return .object(headers.mapValues(JSONValue.string))
            case .now: return .number(now)
            case .outcome: return call.map { .string($0.outcome) }
            case .success: return call.map { .bool($0.success) }
            case .reason, .outputs, .inputs, .store, .vars: return nil
            }
        case .member(let base, let name):
            if case .root(let root) = base.kind {
                switch root {
                case .inputs: return inputs[name].map(JSONValue.string)
                case .store: return unknownStore.contains(name) ? nil : store[name] ?? .null
                case .vars: return vars[name]
                case .outputs, .reason: return nil
                default: break
                }
            }
            return evaluate(base).map { $0[name] }
        case .index(let base, let indexExpr):
            guard let value = evaluate(base), let index = evaluate(indexExpr) else { return nil }
            return value.indexed(by: index, lowercasingKey: base.isHeadersRoot)
        case .unary(.not, let operand):
            return truth(operand).map { .bool(!$0) }
        case .unary(.negate, let operand):
            guard case .number(let n)? = evaluate(operand) else { return nil }
            return .number(-n)
        case .binary(let op, let lhs, let rhs):
            return binary(op, lhs, rhs)
        case .call(let function, let args):
            return call(function, args)
        case .list(let items):
            var values: [JSONValue] = []
            for item in items {
                guard let v = evaluate(item) else { return nil }
                values.append(v)
            }
            return .array(values)
        }
    }

    /// True or false as a guard; nil when unknown or not a boolean (a run-time error).
    public func truth(_ expr: Expr) -> Bool? {
        switch evaluate(expr) {
        case .bool(let b)?: b
        case .null?: false
        default: nil
        }
    }

    private func binary(_ op: BinaryOp, _ lhs: Expr, _ rhs: Expr) -> JSONValue? {
        switch op {
        case .and:
            guard let l = truth(lhs) else { return nil }
            return l ? truth(rhs).map(JSONValue.bool) : .bool(false)
        case .or:
            guard let l = truth(lhs) else { return nil }
            return l ? .bool(true) : truth(rhs).map(JSONValue.bool)
        default: break
        }
        guard let l = evaluate(lhs), let r = evaluate(rhs) else { return nil }
        switch op {
        case .equal: return .bool(l == r)
        case .notEqual: return .bool(l != r)
        case .less, .lessEqual, .greater, .greaterEqual:
            let order: Int
            switch (l, r) {
            case (.number(let a), .number(let b)): order = a < b ? -1 : a > b ? 1 : 0
            case (.string(let a), .string(let b)): order = a < b ? -1 : a > b ? 1 : 0
            default: return nil
            }
            switch op {
            case .less: return .bool(order < 0)
            case .lessEqual: return .bool(order <= 0)
            case .greater: return .bool(order > 0)
            default: return .bool(order >= 0)
            }
        case .add:
            switch (l, r) {
            case (.number(let a), .number(let b)): return .number(a + b)
            case (.string(let a), .string(let b)): return .string(a + b)
            default: return nil
            }
        case .subtract, .multiply, .divide, .remainder:
            guard case .number(let a) = l, case .number(let b) = r else { return nil }
            switch op {
            case .subtract: return .number(a - b)
            case .multiply: return .number(a * b)
            case .divide: return b == 0 ? nil : .number(a / b)
            default: return b == 0 ? nil : .number(a.truncatingRemainder(dividingBy: b))
            }
        case .contains:
            switch r {
            case .array(let items): return .bool(items.contains(l))
            case .object(let fields): return .bool(l.stringValue.map { fields[$0] != nil } ?? false)
            case .string(let s): return .bool(l.stringValue.map { s.contains($0) } ?? false)
            case .null: return .bool(false)
            default: return nil
            }
        default: return nil
        }
    }

    private func call(_ function: Function, _ args: [Expr]) -> JSONValue? {
        let values = args.map(evaluate)
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        let v = values.map { $0! }
        switch function {
        case .exists: return .bool(!v[0].isNull)
        case .len:
            switch v[0] {
            case .string(let s): return .number(Double(s.count))
            case .array(let a): return .number(Double(a.count))
            case .object(let o): return .number(Double(o.count))
            case .null: return .number(0)
            default: return nil
            }
        case .lower: return v[0].stringValue.map { .string($0.lowercased()) } ?? v[0]
        case .upper: return v[0].stringValue.map { .string($0.uppercased()) } ?? v[0]
        case .string: return .string(v[0].interpolated)
        case .number:
            switch v[0] {
            case .number: return v[0]
            case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces)).map(JSONValue.number) ?? .null
            case .bool(let b): return .number(b ? 1 : 0)
            default: return .null
            }
        case .slice:
            guard let text = v[0].stringValue, let start = v[1].numberValue, start.isFinite else { return nil }
            let end = v.count > 2 ? v[2].numberValue : nil
            if v.count > 2, !(end?.isFinite ?? false) { return nil }
            return .string(text.sliced(from: start, to: end))
        case .matches, .jwt, .totp, .forgeJWT: return nil
        }
    }

    /// A template rendered as text, or nil when a part of it is unknown.
    public func render(_ template: Template) -> String? {
        var out = ""
        for part in template.parts {
            switch part {
            case .text(let t): out += t
            case .expr(let e):
                guard let value = evaluate(e) else { return nil }
                out += value.interpolated
            }
        }
        return out
    }
}
