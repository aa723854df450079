/// A loaded, checked flow: the state machine the interpreter runs.
package struct Flow: Sendable {
    package var name: String
    package var title: String?
    package var file: String
    package var location: SourceLocation
    /// Token-store namespace for `store.*`; resolved from the session when not written.
    package var namespace: String
    package var namespaceWasDeclared: Bool
    package var session: NameRef?
    package var inputs: [InputDecl]
    package var baseURL: Template?
    package var headers: [(String, Template)]
    package var variables: [(String, Expr)]
    package var maxSteps: Int
    package var start: NameRef
    package var states: [String: State]
    /// State names in file order, for stable output.
    package var stateOrder: [String]
    /// States written in the file that did not load (their errors are already reported); references to them
    /// are not reported again as unknown.
    package var brokenStates: Set<String> = []
    /// Inputs the initial `variables:` read.
    package var variableInputReads: [String] = []

    package func input(named name: String) -> InputDecl? { inputs.first { $0.name == name } }

    /// The states in file order; a name in `stateOrder` without a state (one that did not load) is left out.
    package var orderedStates: [State] { stateOrder.compactMap { states[$0] } }

    package static let defaultMaxSteps = 100
    package static let reservedOutcomes: Set<String> = ["unhandled", "error"]
}

/// A name written in a file, with where it was written, for "unknown X" diagnostics.
package struct NameRef: Sendable, Hashable {
    package var name: String
    package var location: SourceLocation
    package init(_ name: String, at location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

package struct InputDecl: Sendable {
    package enum Kind: String, Sendable, CaseIterable { case string, email, phone, code }

    package var name: String
    package var kind: Kind
    package var pattern: CompiledRegex?
    package var secret: Bool
    package var prompt: String?
    package var location: SourceLocation

    /// Why `value` is not acceptable, or nil when it is.
    package func problem(with value: String) -> String? {
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

package struct State: Sendable {
    package var name: String
    package var location: SourceLocation
    package var kind: Kind
    /// Inputs any expression of this state reads, found once at load time so a run need not walk them.
    package var inputReads: [String] = []

    /// Indirect: a run copies the state it is in at every step, and a boxed payload makes that one reference to
    /// retain rather than every field of a request.
    package indirect enum Kind: Sendable {
        case request(RequestState)
        case input(InputState)
        case choice([Transition])
        case call(CallState)
        case wait(WaitState)
        case end(EndState)
    }

    package var kindName: String {
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
    package var inputReadsBeforeActing: [String] {
        guard case .call(let c) = kind else { return inputReads }
        return inputReads.filter { name in c.with.contains { $0.1.inputReads.contains { $0.0 == name } } }
    }

    package var inputReadsAfterActing: [String] {
        let before = Set(inputReadsBeforeActing)
        return inputReads.filter { !before.contains($0) }
    }

    package var transitions: [Transition] {
        switch kind {
        case .request(let r): r.transitions
        case .choice(let t): t
        case .call(let c): c.transitions
        case .input, .wait, .end: []
        }
    }

    /// Every state this one can go to, with the variable a `goto` adds implicitly.
    package var successors: [(target: NameRef, sets: [String])] {
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

package struct RequestState: Sendable {
    package var method: String
    package var path: Template?
    package var url: Template?
    package var query: [(String, Template)]
    package var headers: [(String, Template)]
    package var body: RequestBody
    /// nil: the flow's default session; `.some(nil)`-like opt-out is `sessionOptOut`.
    package var session: NameRef?
    package var sessionOptOut: Bool
    package var transitions: [Transition]
    package var unreachable: NameRef?
    /// `answers: [401]`: statuses that are this request's answer, never an expired token — the session's headers
    /// are still sent, but a response with one of them goes to the transitions without a reactive refresh.
    package var answers: [Int] = []
    package var answersLocation: SourceLocation?

    /// Whether a response with `status` is an answer to this request rather than a reason to refresh `session`:
    /// a status listed in `answers:`, or any status when the session's `refresh.not_for` names this request.
    package func answers(_ status: Int, in session: SessionDef) -> Bool {
        answers.contains(status) || session.refresh?.notFor.contains { $0.names(self) } == true
    }
}

package enum RequestBody: Sendable {
    case none
    case json(TemplateValue)
    case form([(String, Template)])
}

package struct InputState: Sendable {
    package var input: NameRef
    package var goto: NameRef
    package var invalid: NameRef?
}

package struct CallState: Sendable {
    package var flow: NameRef
    package var with: [(NameRef, Expr)]
    package var transitions: [Transition]
}

package struct WaitState: Sendable {
    package var duration: Expr
    package var goto: NameRef
}

package struct EndState: Sendable {
    package var outcome: String
    package var success: Bool
    /// `skip: true`: reaching this end means the promise could not be checked here (no fresh code to try, a
    /// precondition the backend did not meet). A scenario that ends here is reported skipped with the reason,
    /// never passed, unless its expectation names this outcome.
    package var skip: Bool = false
    package var reason: Template?
    package var outputs: [(String, Expr)]
}

package struct Transition: Sendable {
    /// nil for `else: true`.
    package var guardExpr: Expr?
    package var set: [(String, Expr)]
    package var store: [(String, Expr)]
    package var forget: Forget
    package var goto: NameRef
    package var location: SourceLocation

    package enum Forget: Sendable {
        case nothing
        case keys([String])
        case all
    }

    package var expressions: [Expr] {
        (guardExpr.map { [$0] } ?? []) + set.map(\.1) + store.map(\.1)
    }
}

/// How authenticated requests carry a token and how it is renewed.
package struct SessionDef: Sendable {
    package var name: String
    package var file: String
    package var location: SourceLocation
    package var namespace: String
    package var headers: [(String, Template)]
    package var refresh: Refresh?

    package struct Refresh: Sendable {
        package var flow: NameRef
        package var when: Expr?
        package var aheadExpiresAt: Expr?
        package var aheadMargin: Expr?
        package var failureOutcome: String
        package var failureReason: Template?
        /// `not_for:` requests (method and path as written) whose responses never trigger the reactive refresh.
        package var notFor: [RequestName] = []
    }
}
