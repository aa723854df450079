/// What a list function may spend, with every list function nested in it: CPU time of the evaluating thread, like
/// `matches()` (a loaded machine must not stop linear work) and with the same base: 0.5 s, plus 10 µs per element it
/// goes through. Half a second keeps a fuzzed expression within the fuzzer's one second an input (Fuzz/run.sh).
///
/// One pass over a list is linear and always fits, even over a 1 MB list of hundreds of thousands of elements. What
/// does not fit is a list function nested over a list that does not come from the element — `any(body.a,
/// any(body.a, it == 1))` goes through `body.a` once per element of `body.a` — so such a list earns its allowance
/// once per place it is written, while a list read from the element (`any(body.groups, any(it.members, …))`) earns
/// it every time, being a different part of the body each time. A run's `--timeout` stops the work too.
final class ListWork {
    static let baseSeconds = 0.5
    static let secondsPerElement = 0.000_01
    /// Elements between two looks at the clocks: reading the thread's CPU time is a system call.
    static let elementsPerLook = 16

    private var deadline: UInt64
    private var budgetSeconds = ListWork.baseSeconds
    private var untilLook = ListWork.elementsPerLook
    private var countedPlaces: Set<SourceLocation> = []

    init() {
        deadline = CompiledRegex.threadCPUNanoseconds() + UInt64(Self.baseSeconds * 1_000_000_000)
    }

    /// A list of `count` elements, the value of `listExpr`, is about to be gone through.
    func enter(_ count: Int, of listExpr: Expr) {
        var readsElement = false
        listExpr.visit { if case .element = $0.kind { readsElement = true } }
        if !readsElement { guard countedPlaces.insert(listExpr.location).inserted else { return } }
        let seconds = Double(count) * Self.secondsPerElement
        budgetSeconds += seconds
        deadline &+= UInt64(seconds * 1_000_000_000)
    }

    /// One more element; an error at `expr` once the budget is spent or the run's time limit reached.
    func step(_ function: Function, at expr: Expr) throws(EvaluationError) {
        untilLook -= 1
        guard untilLook <= 0 else { return }
        untilLook = Self.elementsPerLook
        if RunDeadline.isReached {
            throw EvaluationError(location: expr.location, message: "stopped: the run's time limit was reached while `\(function.rawValue)` went through a list")
        }
        if CompiledRegex.threadCPUNanoseconds() > deadline {
            throw EvaluationError(location: expr.location,
                                  message: "`\(function.rawValue)` took more than \(Durations.describe(budgetSeconds)) of CPU time (0.5 s plus 10 µs per element), so it was stopped; "
                                    + "a list function nested over a list that is not its element's (`any(body.a, any(body.a, …))`) goes through that list once per element — go through each list once")
        }
    }
}
