/// A loaded, checked flow: the state machine the interpreter runs.
public struct Flow: Sendable {
    public var name: String
    public var title: String?
    public var file: String
    public var location: SourceLocation
    /// Token-store namespace for `store.*`; resolved from the session when not written.
    public var namespace: String
    public var namespaceWasDeclared: Bool
    public var session: NameRef?
    public var inputs: [InputDecl]
    public var baseURL: Template?
    public var headers: [(String, Template)]
    public var variables: [(String, Expr)]
    public var maxSteps: Int
    public var start: NameRef
    public var states: [String: State]
    /// State names in file order, for stable output.
    public var stateOrder: [String]
    /// States written in the file that did not load (their errors are already reported); references to them
    /// are not reported again as unknown.
    public var brokenStates: Set<String> = []
    /// Inputs the initial `variables:` read.
    public var variableInputReads: [String] = []

    public func input(named name: String) -> InputDecl? { inputs.first { $0.name == name } }

    /// The states in file order; a name in `stateOrder` without a state (one that did not load) is left out.
    public var orderedStates: [State] { stateOrder.compactMap { states[$0] } }

    public static let defaultMaxSteps = 100
    public static let reservedOutcomes: Set<String> = ["unhandled", "error"]
}

/// A name written in a file, with where it was written, for "unknown X" diagnostics.
public struct NameRef: Sendable, Hashable {
    public var name: String
    public var location: SourceLocation
    public init(_ name: String, at location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

public struct InputDecl: Sendable {
    public enum Kind: String, Sendable, CaseIterable { case string, email, phone, code }

    public var name: String
    public var kind: Kind
    public var pattern: CompiledRegex?
    public var secret: Bool
    public var prompt: String?
    public var location: SourceLocation

    /// Why `value` is not acceptable, or nil when it is.
    public func problem(with value: String) -> String? {
        switch kind {
        case .string: break
        case .email:
            if !InputShapes.isEmail(value) { return "`\(name)` must be an email address like name@example.com" }
        case .phone:
            if !InputShapes.isE164(value) {
                return
                    "`\(name)` must be an E.164 phone number: `+`, country code and number, 2 to 15 digits, e.g. +15551234567"
            }
        case .code:
            // `type: code` says what the value is (a one-time code, which probes replay), not its characters:
            // a pattern alone decides those (`ABCD-EFGH`, `123 456`); without one, a code's usual shape.
            if pattern == nil, !InputShapes.isCode(value) {
                return
                    "`\(name)` must be a one-time code: letters and digits, in groups joined by single `-` (123456, ABCD-EFGH)"
                    + "; give the input a `pattern:` to accept another shape"
            }
        }
        if let pattern {
            do {
                if try !pattern.wholeMatch(value) { return "`\(name)` does not match the pattern \(pattern.pattern)" }
            } catch {
                return "`\(name)` could not be checked: \(error)"
            }
        }
        return nil
    }
}

public struct State: Sendable {
    public var name: String
    public var location: SourceLocation
    public var kind: Kind
    /// Inputs any expression of this state reads, found once at load time so a run need not walk them.
    public var inputReads: [String] = []

    /// Indirect: a run copies the state it is in at every step, and a boxed payload makes that one reference to
    /// retain rather than every field of a request.
    public indirect enum Kind: Sendable {
        case request(RequestState)
        case input(InputState)
        case choice([Transition])
        case call(CallState)
        case wait(WaitState)
        case end(EndState)
    }

    public var kindName: String {
        switch kind {
        case .request: "request"
        case .input: "input"
        case .choice: "choice"
        case .call: "call"
        case .wait: "wait"
        case .end: "end"
        }
    }

    /// The inputs a run asks for before this state acts, and after. A call passes its `with:` arguments first and
    /// asks for what its transitions read only once the called flow has run, so a sub-flow that asks for the same
    /// input gets the first value; every other state asks for everything it reads before acting. The interpreter
    /// runs by this rule and the scenario generator predicts by it.
    public var inputReadsBeforeActing: [String] {
        guard case .call(let c) = kind else { return inputReads }
        return inputReads.filter { name in c.with.contains { $0.1.inputReads.contains { $0.0 == name } } }
    }

    public var inputReadsAfterActing: [String] {
        let before = Set(inputReadsBeforeActing)
        return inputReads.filter { !before.contains($0) }
    }

    public var transitions: [Transition] {
        switch kind {
        case .request(let r): r.transitions
        case .choice(let t): t
        case .call(let c): c.transitions
        default: []
        }
    }

    /// Every state this one can go to, with the variable a `goto` adds implicitly.
    public var successors: [(target: NameRef, sets: [String])] {
        switch kind {
        case .request(let r):
            var out = r.transitions.map { ($0.goto, $0.set.map(\.0)) }
            if let u = r.unreachable { out.append((u, [])) }
            return out
        case .choice(let t): return t.map { ($0.goto, $0.set.map(\.0)) }
        case .call(let c): return c.transitions.map { ($0.goto, $0.set.map(\.0)) }
        case .input(let i):
            var out = [(i.goto, [String]())]
            if let invalid = i.invalid { out.append((invalid, ["input_error"])) }
            return out
        case .wait(let w): return [(w.goto, [])]
        case .end: return []
        }
    }
}

public struct RequestState: Sendable {
    public var method: String
    public var path: Template?
    public var url: Template?
    public var query: [(String, Template)]
    public var headers: [(String, Template)]
    public var body: RequestBody
    /// nil: the flow's default session; `.some(nil)`-like opt-out is `sessionOptOut`.
    public var session: NameRef?
    public var sessionOptOut: Bool
    public var transitions: [Transition]
    public var unreachable: NameRef?
    /// `answers: [401]`: statuses that are this request's answer, never an expired token — the session's headers
    /// are still sent, but a response with one of them goes to the transitions without a reactive refresh.
    public var answers: [Int] = []
    public var answersLocation: SourceLocation?

    /// Whether a response with `status` is an answer to this request rather than a reason to refresh `session`:
    /// a status listed in `answers:`, or any status when the session's `refresh.not_for` names this request.
    public func answers(_ status: Int, in session: SessionDef) -> Bool {
        answers.contains(status) || session.refresh?.notFor.contains { $0.names(self) } == true
    }
}

public enum RequestBody: Sendable {
    case none
    case json(TemplateValue)
    case form([(String, Template)])
}

public struct InputState: Sendable {
    public var input: NameRef
    public var goto: NameRef
    public var invalid: NameRef?
}

public struct CallState: Sendable {
    public var flow: NameRef
    public var with: [(NameRef, Expr)]
    public var transitions: [Transition]
}

public struct WaitState: Sendable {
    public var duration: Expr
    public var goto: NameRef
}

public struct EndState: Sendable {
    public var outcome: String
    public var success: Bool
    /// `skip: true`: reaching this end means the promise could not be checked here (no fresh code to try, a
    /// precondition the backend did not meet). A scenario that ends here is reported skipped with the reason,
    /// never passed, unless its expectation names this outcome.
    public var skip: Bool = false
    public var reason: Template?
    public var outputs: [(String, Expr)]
}

public struct Transition: Sendable {
    /// nil for `else: true`.
    public var guardExpr: Expr?
    public var set: [(String, Expr)]
    public var store: [(String, Expr)]
    public var forget: Forget
    public var goto: NameRef
    public var location: SourceLocation

    public enum Forget: Sendable {
        case nothing
        case keys([String])
        case all
    }

    public var expressions: [Expr] {
        (guardExpr.map { [$0] } ?? []) + set.map(\.1) + store.map(\.1)
    }
}

/// How authenticated requests carry a token and how it is renewed.
public struct SessionDef: Sendable {
    public var name: String
    public var file: String
    public var location: SourceLocation
    public var namespace: String
    public var headers: [(String, Template)]
    public var refresh: Refresh?

    public struct Refresh: Sendable {
        public var flow: NameRef
        public var when: Expr?
        public var aheadExpiresAt: Expr?
        public var aheadMargin: Expr?
        public var failureOutcome: String
        public var failureReason: Template?
        /// `not_for:` requests (method and path as written) whose responses never trigger the reactive refresh.
        public var notFor: [RequestName] = []
    }
}
