/// What a list function may spend, with every list function nested in it: CPU time of the evaluating thread, like
/// `matches()` (a loaded machine must not stop linear work) and with the same base: 0.5 s, plus 10 µs per value in
/// the lists it goes through. Half a second keeps a fuzzed expression within the fuzzer's second an input
/// (Fuzz/run.sh).
///
/// The allowance follows the size of the data, not the work, so that linear work always fits and quadratic work
/// never does. The outermost list earns 10 µs for every value inside it, at any depth: that covers going through
/// it and through every list inside its elements (`any(body.groups, any(it.members, …))`), whose lists are parts of
/// it. A nested list that is not read from an element (`any(body.a, any(body.b, …))`) is other data; it earns its
/// values once per place it is written, however often it is gone through — `any(body.a, any(body.a, …))` goes
/// through `body.a` once per element of `body.a`, which is what the budget is there to stop. A run's `--timeout`
/// stops the work too.
final class ListWork {
    static let baseSeconds = 0.5
    static let secondsPerValue = 0.000_01
    /// Elements between two looks at the clocks: reading the thread's CPU time is a system call.
    static let elementsPerLook = 16

    private var deadline: UInt64
    private var budgetSeconds = ListWork.baseSeconds
    private var untilLook = ListWork.elementsPerLook
    private var countedPlaces: Set<SourceLocation> = []

    init() {
        deadline = CompiledRegex.threadCPUNanoseconds() + UInt64(Self.baseSeconds * 1_000_000_000)
    }

    /// `list`, the value of `listExpr`, is about to be gone through; `nested` when a list function encloses this one.
    func enter(_ list: [JSONValue], of listExpr: Expr, nested: Bool) {
        if nested {
            // A list read from an element is inside a list already counted.
            if listExpr.readsFreeElement { return }
            guard countedPlaces.insert(listExpr.location).inserted else { return }
        }
        var values = list.count
        for element in list { values += element.nestedValueCount }
        let seconds = Double(values) * Self.secondsPerValue
        budgetSeconds += seconds
        deadline &+= UInt64(seconds * 1_000_000_000)
    }

    /// One more element; an error at `expr` once the budget is spent or the run's time limit reached.
    func step(_ function: Function, at expr: Expr) throws(EvaluationError) {
        untilLook -= 1
        guard untilLook <= 0 else { return }
        untilLook = Self.elementsPerLook
        if RunDeadline.isReached {
            throw EvaluationError(
                location: expr.location,
                message: "stopped: the run's time limit was reached while `\(function.rawValue)` went through a list")
        }
        if CompiledRegex.threadCPUNanoseconds() > deadline {
            throw EvaluationError(
                location: expr.location,
                message:
                    "`\(function.rawValue)` took more than \(Durations.describe(budgetSeconds)) of CPU time (0.5 s plus 10 µs per value in its lists), so it was stopped; "
                    + "a list function nested over a list that is not its element's (`any(body.a, any(body.a, …))`) goes through that list once per element — go through each list once"
            )
        }
    }
}

extension Expr {
    /// Whether this reads the `it` of an enclosing list function: an `it` inside a nested list function's second
    /// argument is that function's own element.
    var readsFreeElement: Bool {
        switch kind {
        case .element: return true
        case .literal, .root, .variable: return false
        case .member(let base, _): return base.readsFreeElement
        case .index(let base, let index): return base.readsFreeElement || index.readsFreeElement
        case .unary(_, let operand): return operand.readsFreeElement
        case .binary(_, let lhs, let rhs): return lhs.readsFreeElement || rhs.readsFreeElement
        case .call(let function, let args):
            if function.isListFunction { return args[0].readsFreeElement }
            return args.contains { $0.readsFreeElement }
        case .list(let items): return items.contains { $0.readsFreeElement }
        }
    }
}

extension JSONValue {
    /// The values inside a list or an object, at any depth (0 for a scalar). The parser bounds a body's nesting, so
    /// the recursion stays shallow.
    var nestedValueCount: Int {
        switch self {
        case .array(let items): return items.reduce(items.count) { $0 + $1.nestedValueCount }
        case .object(let fields): return fields.values.reduce(fields.count) { $0 + $1.nestedValueCount }
        default: return 0
        }
    }
}
