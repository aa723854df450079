/// `any`, `all`, `count`, `filter`, `first` and `map`: a list's elements looked at one by one, as `it`, by the
/// second argument. Linear in the list; short-circuits where the answer is known (`any` at the first match).
///
/// A missing list (null: an absent field, an empty body) has no elements: `any` is false, `all` true, `count` 0,
/// `filter` and `map` `[]`, `first` null. Anything else that is not a list (an object, a string) is an error at the
/// first argument: looking for an element in it is a mistake, not an absence.
extension Evaluator {
    static func listCall(_ function: Function, _ args: [Expr], _ expr: Expr, _ env: some EvaluationScope)
        throws(EvaluationError) -> JSONValue
    {
        let subject = try evaluate(args[0], env)
        let items: [JSONValue]
        switch subject {
        case .array(let elements): items = elements
        case .null: items = []
        default:
            throw EvaluationError(
                location: args[0].location,
                message: "`\(function.rawValue)` looks through a list, but its first argument is \(describe(subject))")
        }
        if function == .first, args.count == 1 { return items.first ?? .null }
        let outer = env.listElement?.work
        let work = outer ?? ListWork()
        work.enter(items, of: args[0], nested: outer != nil)
        // Boxed once: every element's scope shares the box.
        let base: any EvaluationScope = env
        var counted = 0
        var kept: [JSONValue] = []
        for (position, item) in items.enumerated() {
            try work.step(function, at: expr)
            let scope = ElementScope(base: base, element: ListElement(value: item, work: work))
            if function == .map {
                kept.append(try evaluate(args[1], scope))
                continue
            }
            let holds = try condition(function, args[1], position, scope)
            switch function {
            case .any: if holds { return .bool(true) }
            case .all: if !holds { return .bool(false) }
            case .count: if holds { counted += 1 }
            case .filter: if holds { kept.append(item) }
            default: if holds { return item }
            }
        }
        switch function {
        case .any: return .bool(false)
        case .all: return .bool(true)
        case .count: return .number(Double(counted))
        case .filter, .map: return .array(kept)
        default: return .null
        }
    }

    /// The condition for one element: true or false, null (a field the element lacks) counting as false, as in `when:`.
    private static func condition(_ function: Function, _ condition: Expr, _ position: Int, _ scope: ElementScope)
        throws(EvaluationError) -> Bool
    {
        let value = try evaluate(condition, scope)
        switch value {
        case .bool(let b): return b
        case .null: return false
        default:
            throw EvaluationError(
                location: condition.location,
                message:
                    "`\(function.rawValue)` needs true or false from its condition, but for the element at position \(position) it gave \(describe(value))"
            )
        }
    }
}
