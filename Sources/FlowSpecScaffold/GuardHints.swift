import FlowSpecLanguage

// Over 300 lines on purpose: one small solver (guards to disjunctive normal form, atoms, a value meeting them);
// its steps only make sense together, and splitting them would scatter one algorithm over files.

/// Something a scripted scenario chooses, which guards may read.
package enum HintFact: Hashable, Sendable, CustomStringConvertible {
    case status
    /// A path into the response body (`body.user.id` is `["user", "id"]`).
    case body([String])
    /// A response header, lowercased.
    case header(String)
    /// A key of the flow's namespace in the scenario's initial `store:`.
    case store(String)
    /// An input's value.
    case input(String)

    package var description: String {
        switch self {
        case .status: "status"
        case .body(let keys): (["body"] + keys).joined(separator: ".")
        case .header(let name): "headers[\"\(name)\"]"
        case .store(let key): "store.\(key)"
        case .input(let name): "inputs.\(name)"
        }
    }
}

/// Derives values that make a guard true (or false) from its expression, for the simple shapes guards have:
/// `status == 200`, `status >= 400`, `status in [401, 403]`, `body.a.b == "x"`, `exists(body.token)`,
/// `body.x != null`, `"k" in body`, `!…`, `&&`, `||`. Anything else is left alone: the caller writes a TODO.
/// Every proposal is checked by evaluating the guards against it, so a hint is never wrong, only missing.
package enum GuardHints {
    package enum Atom: Hashable, Sendable {
        case equals(JSONValue)
        case notEquals(JSONValue)
        case present
        case absent
        /// `fact <op> number` with op one of `<`, `<=`, `>`, `>=`.
        case compare(BinaryOp, Double)
    }

    package typealias Conjunction = [(HintFact, Atom)]

    /// Bounds the alternatives explored for one guard set; beyond it a TODO is kinder than a slow scaffold.
    static let maxAlternatives = 64

    /// Values for the free facts under which the transition at `index` is the first to match, or nil when none
    /// can be derived. `index == transitions.count` asks for none to match. `isFree` says what may be chosen.
    package static func choose(
        _ transitions: [Transition], index: Int, in world: ScaffoldWorld,
        isFree: (HintFact) -> Bool
    ) -> [HintFact: JSONValue]? {
        var goals: [(Expr, Bool)] = transitions.prefix(index).compactMap { t in t.guardExpr.map { ($0, false) } }
        if index < transitions.count, let target = transitions[index].guardExpr { goals.append((target, true)) }
        return solve(goals, in: world, isFree: isFree)
    }

    /// Values for the free facts that give every expression its wanted truth, verified by evaluation.
    package static func solve(_ goals: [(Expr, Bool)], in world: ScaffoldWorld, isFree: (HintFact) -> Bool)
        -> [HintFact: JSONValue]?
    {
        var combined: [Conjunction] = [[]]
        for (expr, want) in goals {
            guard let options = alternatives(expr, want: want, world, isFree) else {
                // Not analysable, but it may already hold (e.g. a known variable): keep going and let
                // verification decide.
                continue
            }
            combined = product(combined, options)
            if combined.isEmpty { return nil }
        }
        for conjunction in combined {
            guard let values = assign(conjunction) else { continue }
            let candidate = apply(values, to: world)
            if goals.allSatisfy({ candidate.truth($0.0) == $0.1 }) { return values }
        }
        return nil
    }

    /// True when, in `world`, the transition at `index` is the first whose guard holds (`transitions.count`: none).
    package static func holds(_ transitions: [Transition], index: Int, in world: ScaffoldWorld) -> Bool {
        for (i, t) in transitions.enumerated() {
            let truth = t.guardExpr.map { world.truth($0) } ?? true
            if i == index { return truth == true }
            if truth != false { return false }
        }
        return index == transitions.count
    }

    /// Placeholder values for free body fields that `exprs` read and the world lacks, typed by how they are
    /// used: a number where arithmetic needs one (`now + body.expiresIn`), else a string. A transition's
    /// `set:`/`store:` that does arithmetic on a missing field would end the run in error.
    package static func placeholders(for exprs: [Expr], in world: ScaffoldWorld, isFree: (HintFact) -> Bool)
        -> [HintFact: JSONValue]
    {
        var out: [HintFact: JSONValue] = [:]
        func isNumber(_ e: Expr) -> Bool { world.evaluate(e)?.numberValue != nil }
        func collect(_ e: Expr, numeric: Bool) {
            if let f = fact(e), case .body(let keys) = f, !keys.isEmpty, isFree(f) {
                if world.evaluate(e) == .null, out[f] == nil {
                    out[f] = numeric ? .number(3600) : .string("placeholder")
                }
                return
            }
            switch e.kind {
            case .binary(let op, let l, let r) where [.subtract, .multiply, .divide, .remainder].contains(op):
                collect(l, numeric: true); collect(r, numeric: true)
            case .binary(.add, let l, let r):
                collect(l, numeric: isNumber(r)); collect(r, numeric: isNumber(l))
            case .binary(_, let l, let r): collect(l, numeric: false); collect(r, numeric: false)
            case .unary(.negate, let x): collect(x, numeric: true)
            case .unary(_, let x): collect(x, numeric: false)
            case .member(let base, _): collect(base, numeric: false)
            case .index(let base, let index): collect(base, numeric: false); collect(index, numeric: false)
            // A list function's missing list is an empty one, never an error; a text placeholder there would be.
            case .call(let function, _) where function.isListFunction: break
            case .call(_, let args): args.forEach { collect($0, numeric: false) }
            case .list(let items): items.forEach { collect($0, numeric: false) }
            case .literal, .root, .variable, .element: break
            }
        }
        exprs.forEach { collect($0, numeric: false) }
        return out
    }

    /// Whether evaluating `expr` can fail at run time (arithmetic, ordering, conversions), so an unknown
    /// value there is worth a TODO; reading a missing field merely gives null.
    package static func mayFail(_ expr: Expr) -> Bool {
        var found = false
        expr.visit { node in
            switch node.kind {
            case .binary(let op, _, _) where ![.and, .or, .equal, .notEqual].contains(op): found = true
            case .unary(.negate, _): found = true
            case .variable: found = true
            case .call(let f, _) where f != .exists: found = true
            default: break
            }
        }
        return found
    }

    /// The world with `values` chosen.
    package static func apply(_ values: [HintFact: JSONValue], to world: ScaffoldWorld) -> ScaffoldWorld {
        var w = world
        for (fact, value) in values.sorted(by: { $0.key.description < $1.key.description }) {
            switch fact {
            case .status: if case .number(let n) = value { w.status = Int(n) }
            case .body(let keys): w.body = setting(w.body, keys[...], value)
            case .header(let name):
                if !value.isNull { w.headers[name] = value.interpolated } else { w.headers[name] = nil }
            case .store(let key):
                w.unknownStore.remove(key)
                w.store[key] = value.isNull ? nil : value
            case .input(let name): if let s = value.stringValue { w.inputs[name] = s }
            }
        }
        return w
    }

    static func setting(_ base: JSONValue, _ keys: ArraySlice<String>, _ value: JSONValue) -> JSONValue {
        guard let key = keys.first else { return value }
        var object = base.objectValue ?? [:]
        let inner = setting(object[key] ?? .null, keys.dropFirst(), value)
        if inner.isNull && keys.count == 1 { object[key] = nil } else { object[key] = inner }
        return .object(object)
    }

    // MARK: - From expressions to alternatives

    /// Ways (each a conjunction of atoms) to give `expr` the truth `want`; nil when the shape is not understood.
    static func alternatives(_ expr: Expr, want: Bool, _ world: ScaffoldWorld, _ isFree: (HintFact) -> Bool)
        -> [Conjunction]?
    {
        if !readsFree(expr, isFree) {
            guard let truth = world.truth(expr) else { return nil }
            return truth == want ? [[]] : []
        }
        if let fact = fact(expr), isFree(fact) {
            // A bare value as a guard: true only when it is `true`.
            return [[(fact, want ? .equals(.bool(true)) : .notEquals(.bool(true)))]]
        }
        switch expr.kind {
        case .unary(.not, let operand):
            return alternatives(operand, want: !want, world, isFree)
        case .binary(.and, let l, let r), .binary(.or, let l, let r):
            let isAnd: Bool = if case .binary(.and, _, _) = expr.kind { true } else { false }
            guard let a = alternatives(l, want: want, world, isFree), let b = alternatives(r, want: want, world, isFree)
            else { return nil }
            // want(a && b) and !want(a || b) need both; the other two need either.
            return isAnd == want ? product(a, b) : Array((a + b).prefix(maxAlternatives))
        case .binary(let op, let l, let r)
        where [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual].contains(op):
            if let f = fact(l), isFree(f), !readsFree(r, isFree), let v = world.evaluate(r) {
                return atom(f, op, v, want).map { [[$0]] }
            }
            if let f = fact(r), isFree(f), !readsFree(l, isFree), let v = world.evaluate(l) {
                return atom(f, flipped(op), v, want).map { [[$0]] }
            }
            return nil
        case .binary(.contains, let l, let r):
            if let f = fact(l), isFree(f), !readsFree(r, isFree), case .array(let items)? = world.evaluate(r),
                let first = items.first
            {
                return want ? [[(f, .equals(first))]] : [items.map { (f, .notEquals($0)) }]
            }
            if case .literal(.string(let key)) = l.kind, let f = fact(r), case .body(let keys) = f, isFree(f) {
                return [[(.body(keys + [key]), want ? .present : .absent)]]
            }
            return nil
        case .call(.exists, let args):
            guard let f = fact(args[0]), isFree(f) else { return nil }
            return [[(f, want ? .present : .absent)]]
        default:
            return nil
        }
    }

    static func atom(_ fact: HintFact, _ op: BinaryOp, _ value: JSONValue, _ want: Bool) -> (HintFact, Atom)? {
        let effective = want ? op : negated(op)
        switch effective {
        case .equal: return (fact, value.isNull ? .absent : .equals(value))
        case .notEqual: return (fact, value.isNull ? .present : .notEquals(value))
        default:
            guard case .number(let n) = value else { return nil }
            return (fact, .compare(effective, n))
        }
    }

    static func negated(_ op: BinaryOp) -> BinaryOp {
        switch op {
        case .equal: .notEqual
        case .notEqual: .equal
        case .less: .greaterEqual
        case .lessEqual: .greater
        case .greater: .lessEqual
        case .greaterEqual: .less
        default: op
        }
    }

    /// `5 < x` is `x > 5`.
    static func flipped(_ op: BinaryOp) -> BinaryOp {
        switch op {
        case .less: .greater
        case .lessEqual: .greaterEqual
        case .greater: .less
        case .greaterEqual: .lessEqual
        default: op
        }
    }

    static func product(_ a: [Conjunction], _ b: [Conjunction]) -> [Conjunction] {
        var out: [Conjunction] = []
        for x in a {
            for y in b {
                out.append(x + y)
                if out.count >= maxAlternatives { return out }
            }
        }
        return out
    }

    /// The fact an expression names directly: `status`, `body.a["b"]`, `headers["x"]`, `store.k`, `inputs.n`.
    package static func fact(_ expr: Expr) -> HintFact? {
        switch expr.kind {
        case .root(.status): return .status
        case .root(.body): return .body([])
        case .member(let base, let name):
            if case .root(let root) = base.kind {
                switch root {
                case .store: return .store(name)
                case .inputs: return .input(name)
                case .headers: return .header(name.lowercased())
                default: break
                }
            }
            if case .body(let keys)? = fact(base) { return .body(keys + [name]) }
            return nil
        case .index(let base, let index):
            guard case .literal(.string(let key)) = index.kind else { return nil }
            if case .root(.headers) = base.kind { return .header(key.lowercased()) }
            if case .body(let keys)? = fact(base) { return .body(keys + [key]) }
            return nil
        default:
            return nil
        }
    }

    static func readsFree(_ expr: Expr, _ isFree: (HintFact) -> Bool) -> Bool {
        var found = false
        expr.visit { node in
            if let f = fact(node), isFree(f) { found = true }
        }
        return found
    }

    /// Whether the expression reads the response (`status`, `body`, `headers`).
    package static func readsResponse(_ expr: Expr) -> Bool {
        expr.roots.contains { [.status, .body, .headers].contains($0.0) }
    }

    // MARK: - From atoms to values

    /// Status codes tried, after any bound a guard names, when a guard only says what the status is not.
    static let statusCandidates = [200, 201, 204, 400, 401, 403, 404, 409, 422, 429, 500, 503]

    /// One value per fact meeting all its atoms; `.null` means "leave it out". Nil on a contradiction.
    static func assign(_ conjunction: Conjunction) -> [HintFact: JSONValue]? {
        var byFact: [HintFact: [Atom]] = [:]
        var order: [HintFact] = []
        for (fact, atom) in conjunction {
            if byFact[fact] == nil { order.append(fact) }
            byFact[fact, default: []].append(atom)
        }
        var out: [HintFact: JSONValue] = [:]
        for fact in order {
            guard let value = value(meeting: byFact[fact]!, isStatus: fact == .status) else { return nil }
            out[fact] = value
        }
        return out
    }

    static func value(meeting atoms: [Atom], isStatus: Bool) -> JSONValue? {
        func ok(_ v: JSONValue) -> Bool { atoms.allSatisfy { meets(v, $0) } }
        var candidates: [JSONValue] = []
        for atom in atoms {
            switch atom {
            case .equals(let v): candidates.append(v)
            case .compare(let op, let n):
                switch op {
                case .greater: candidates.append(.number(n + 1))
                case .less: candidates.append(.number(n - 1))
                default: candidates.append(.number(n))
                }
            default: break
            }
        }
        if isStatus {
            candidates += statusCandidates.map { .number(Double($0)) }
        } else {
            candidates += [.null, .string("placeholder"), .string("placeholder-2"), .bool(true)]
        }
        return candidates.first(where: ok)
    }

    static func meets(_ v: JSONValue, _ atom: Atom) -> Bool {
        switch atom {
        case .equals(let w): return v == w
        case .notEquals(let w): return v != w
        case .present: return !v.isNull
        case .absent: return v.isNull
        case .compare(let op, let n):
            guard case .number(let x) = v else { return false }
            switch op {
            case .less: return x < n
            case .lessEqual: return x <= n
            case .greater: return x > n
            default: return x >= n
            }
        }
    }
}
