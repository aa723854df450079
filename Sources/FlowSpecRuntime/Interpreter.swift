import FlowSpecLanguage
import Foundation

/// Runs flows: one state at a time, against the context's adapter, clock, store and input source.
/// A class, not a struct: every flow run and sub-flow holds it, and copying the context's dozen references into each
/// (retained and released at every step) was a visible cost of every scripted run (docs/performance.md, Scripted runs).
package final class Interpreter: Sendable {
    package let context: RunContext

    package init(context: RunContext) { self.context = context }

    /// Runs `flowName`. `arguments` are input values given by a caller (`call … with:`).
    /// `bypassSessions` is set for refresh flows: their requests never pass through a session.
    /// `parent` is the trace id of the run that started this one.
    package func run(
        flow flowName: String, arguments: [String: String] = [:], bypassSessions: Bool = false, parent: Int? = nil
    ) async -> FlowResult {
        guard let flow = context.specs.compiled[flowName] else {
            return FlowResult(flow: flowName, ending: .error("unknown flow `\(flowName)`"), path: [], variables: [:])
        }
        return await run(flow, arguments: arguments, bypassSessions: bypassSessions, parent: parent)
    }

    /// Runs a compiled flow of the program: a call or a refresh, resolved when the program was made.
    package func run(
        _ flow: CompiledFlow, arguments: [String: String] = [:], bypassSessions: Bool = false, parent: Int? = nil
    ) async -> FlowResult {
        let traceID = context.trace?.begin(flow: flow, parent: parent)
        var run = FlowRun(flow: flow, interpreter: self, bypassSessions: bypassSessions, traceID: traceID)
        let result = await run.execute(arguments: arguments)
        if let traceID { context.trace?.ended(traceID, outcome: result.outcome, success: result.success) }
        return result
    }
}

/// The mutable state of one flow run.
struct FlowRun {
    let compiled: CompiledFlow
    let interpreter: Interpreter
    let bypassSessions: Bool
    /// This run's id in the context's trace, when one is recorded.
    let traceID: Int?
    var path: [String] = []
    var variables: [String: JSONValue] = [:]
    var inputValues: [String: String] = [:]

    var context: RunContext { interpreter.context }
    var flow: Flow { compiled.flow }

    init(flow: CompiledFlow, interpreter: Interpreter, bypassSessions: Bool, traceID: Int?) {
        self.compiled = flow
        self.interpreter = interpreter
        self.bypassSessions = bypassSessions
        self.traceID = traceID
    }

    func result(_ ending: FlowResult.Ending) -> FlowResult {
        FlowResult(flow: flow.name, ending: ending, path: path, variables: variables)
    }

    func error(_ e: EvaluationError) -> FlowResult {
        let hint = e.unsetVariable.map { "; " + context.origin.whereToGive(variable: $0) } ?? ""
        return result(.error("\(e.location): \(context.redactor.redact(e.message))\(hint)"))
    }

    mutating func execute(arguments: [String: String]) async -> FlowResult {
        for (name, value) in arguments {
            guard let decl = compiled.input(named: name) else { continue }
            if decl.isMasked { context.redactor.register(value) }
            if let problem = decl.problem(with: value) { return result(.error("invalid input: \(problem)")) }
            inputValues[name] = value
        }
        let initialEnv: Environment
        do { initialEnv = try await environment(reading: flow.variableInputReads) } catch { return error.result }
        for (name, expr) in flow.variables {
            do throws(EvaluationError) { variables[name] = try Evaluator.evaluate(expr, initialEnv) } catch {
                return self.error(error)
            }
        }

        guard var current = compiled.start else { return result(.error("unknown state `\(flow.start.name)`")) }
        while true {
            if path.count >= flow.maxSteps {
                return result(
                    .error(
                        "step budget of \(flow.maxSteps) exceeded in flow `\(flow.name)`; path: \(FlowRun.describe(path))"
                    ))
            }
            // A flow looping on answers that come at once never waits, so no timer can stop it: it looks at its run's
            // deadline itself, every few steps (each a call at most, whose own steps look too).
            if path.count % FlowRun.stepsPerDeadlineCheck == 0, RunDeadline.isReached {
                return result(
                    .error("stopped in flow `\(flow.name)` after \(path.count) steps: the run's time limit was reached")
                )
            }
            let state = compiled.states[current]
            path.append(state.name)
            interpreter.context.onState?(flow.name, state.name)
            if let traceID { context.trace?.entered(traceID, current) }
            switch await perform(state, at: current) {
            case .take(let edge):
                if let traceID { context.trace?.took(traceID, edge: edge) }
                guard let next = compiled.target(of: current, edge: edge) else {
                    let name = state.edges.first { $0.index == edge }?.target ?? "?"
                    return result(.error("unknown state `\(name)`"))
                }
                current = next
            case .finish(let r): return r
            }
        }
    }

    /// Steps between two looks at the run's deadline: a step takes microseconds when it does not wait.
    static let stepsPerDeadlineCheck = 16

    static func describe(_ path: [String]) -> String {
        if path.count <= 14 { return path.joined(separator: " → ") }
        return (path.prefix(4) + ["…"] + path.suffix(9)).joined(separator: " → ")
    }

    enum Step {
        /// On by the numbered edge (see `Edge`); the compiled flow knows where it leads.
        case take(edge: Int)
        case finish(FlowResult)
    }

    // MARK: - States

    mutating func perform(_ state: State, at index: Int) async -> Step {
        switch state.kind {
        case .end(let end):
            let e: Environment
            do { e = try await environment(reading: state.inputReads) } catch { return .finish(error.result) }
            do throws(EvaluationError) {
                var reason = ""
                if let template = end.reason { reason = context.redactor.redact(try Evaluator.render(template, e)) }
                var outputs: [String: JSONValue] = [:]
                for (name, expr) in end.outputs { outputs[name] = try Evaluator.evaluate(expr, e) }
                if end.skip { return .finish(result(.skipped(outcome: end.outcome, reason: reason))) }
                return .finish(
                    result(.end(outcome: end.outcome, success: end.success, reason: reason, outputs: outputs)))
            } catch {
                return .finish(self.error(error))
            }

        case .input(let i):
            guard let decl = compiled.input(named: i.input.name) else {
                return .finish(result(.error("undeclared input `\(i.input.name)`")))
            }
            let answer: String?
            do { answer = try await context.inputs.next(decl, flow: flow.name) } catch {
                return .finish(result(.error(context.redactor.redact("input `\(decl.name)`: \(error.message)"))))
            }
            guard let value = answer else {
                return .finish(result(.error(FlowRun.missingInput(decl, flow: flow.name, origin: context.origin))))
            }
            if decl.isMasked { context.redactor.register(value) }
            if let problem = decl.problem(with: value) {
                guard i.invalid != nil else {
                    return .finish(result(.error("invalid input: \(context.redactor.redact(problem))")))
                }
                variables["input_error"] = .string(problem)
                return .take(edge: Edge.invalidInputIndex)
            }
            inputValues[decl.name] = value
            return .take(edge: Edge.nextIndex)

        case .wait(let w):
            let e: Environment
            do { e = try await environment(reading: state.inputReads) } catch { return .finish(error.result) }
            do throws(EvaluationError) {
                let value = try Evaluator.evaluate(w.duration, e)
                guard case .number(let seconds) = value, seconds >= 0 else {
                    return .finish(
                        result(
                            .error(
                                "\(w.duration.location): `wait` needs a non-negative number of seconds, got \(value.compactJSON)"
                            )))
                }
                if let limit = context.waitLimit, !(seconds <= limit) {
                    return .finish(
                        result(
                            .skipped(
                                outcome: "skipped",
                                reason: Durations.waitNotAllowed(
                                    "state `\(state.name)` of flow `\(flow.name)`", seconds: seconds, limit: limit))))
                }
                await context.clock.sleep(seconds: seconds)
                return .take(edge: Edge.nextIndex)
            } catch {
                return .finish(self.error(error))
            }

        case .choice(let transitions):
            let e: Environment
            do { e = try await environment(reading: state.inputReads) } catch { return .finish(error.result) }
            return await take(transitions, e, noMatch: "no choice matched in state `\(state.name)`")

        case .call(let c):
            return await call(c, state, at: index)

        case .request(let r):
            return await request(r, state, at: index)
        }
    }

    static func missingInput(_ decl: InputDecl, flow: String, origin: RunOrigin) -> String {
        let what = decl.prompt.map { " (\($0))" } ?? ""
        return "missing input `\(decl.name)`\(what) for flow `\(flow)`: \(origin.whereToGive(input: decl.name))"
    }

    mutating func call(_ c: CallState, _ state: State, at index: Int) async -> Step {
        guard let callee = compiled.callees[index].map({ context.specs.compiledFlows[$0] }) else {
            return .finish(result(.error("unknown flow `\(c.flow.name)`")))
        }
        // See `State.inputReadsBeforeActing`: the arguments now, what the transitions read after the call.
        let e: Environment
        do { e = try await environment(reading: state.inputReadsBeforeActing) } catch { return .finish(error.result) }
        var arguments: [String: String] = [:]
        do throws(EvaluationError) {
            for (name, expr) in c.with { arguments[name.name] = try Evaluator.evaluate(expr, e).interpolated }
        } catch {
            return .finish(self.error(error))
        }
        let sub = await interpreter.run(callee, arguments: arguments, bypassSessions: bypassSessions, parent: traceID)
        switch sub.ending {
        case .end(let outcome, let success, let reason, let outputs):
            var ce: Environment
            do { ce = try await environment(reading: state.inputReads) } catch { return .finish(error.result) }
            ce.call = .init(outcome: outcome, success: success, reason: reason, outputs: outputs)
            return await take(
                c.transitions, ce,
                noMatch: "no transition of state `\(state.name)` matched outcome `\(outcome)` of flow `\(c.flow.name)`")
        case .unhandled(let m):
            return .finish(result(.unhandled("in sub-flow `\(sub.flow)` (path \(FlowRun.describe(sub.path))): \(m)")))
        case .error(let m):
            return .finish(result(.error("in sub-flow `\(sub.flow)`: \(m)")))
        case .infrastructure(let m):
            return .finish(result(.infrastructure(m)))
        case .skipped(let outcome, let reason):
            // What a sub-flow could not check, its caller cannot either.
            return .finish(result(.skipped(outcome: outcome, reason: reason)))
        }
    }

    // MARK: - Transitions

    /// First matching transition wins; its actions are evaluated against the values before any of them apply.
    /// `noMatch` is only built when nothing matched: describing a response costs more than most transitions.
    mutating func take(
        _ transitions: [Transition], _ env: Environment, noMatch: @autoclosure () -> String, unhandled: Bool = false
    ) async -> Step {
        for (index, t) in transitions.enumerated() {
            do throws(EvaluationError) {
                if let g = t.guardExpr, !(try Evaluator.truth(g, env)) {
                    if let traceID { context.trace?.guardFailed(traceID, transition: index) }
                    continue
                }
                var sets: [(String, JSONValue)] = []
                for (name, expr) in t.set { sets.append((name, try Evaluator.evaluate(expr, env))) }
                var writes: [(String, JSONValue)] = []
                for (key, expr) in t.store { writes.append((key, try Evaluator.evaluate(expr, env))) }
                for (name, value) in sets {
                    variables[name] = value
                    context.redactor.registerCaptured(name, value)
                }
                for (key, value) in writes { context.store.set(flow.namespace, key, value) }
                switch t.forget {
                case .nothing: break
                case .all: context.store.clear(flow.namespace)
                case .keys(let keys): for key in keys { context.store.delete(flow.namespace, key) }
                }
                return .take(edge: index)
            } catch {
                return .finish(self.error(error))
            }
        }
        let message = noMatch()
        return .finish(result(unhandled ? .unhandled(message) : .error(message)))
    }

    // MARK: - Environment

    /// Why a state could not even be evaluated (an input missing, invalid or whose command failed): how the run ends.
    struct Stopped: Error {
        let result: FlowResult
    }

    /// Builds what a state's expressions see, first asking the input source for any input they read
    /// (`names`, found at load time) that has no value yet.
    mutating func environment(reading names: [String]) async throws(Stopped) -> Environment {
        for name in names where inputValues[name] == nil {
            guard let decl = compiled.input(named: name) else { continue }
            let answer: String?
            do { answer = try await context.inputs.current(decl, flow: flow.name) } catch {
                throw Stopped(result: result(.error(context.redactor.redact("input `\(name)`: \(error.message)"))))
            }
            guard let value = answer else {
                throw Stopped(
                    result: result(.error(FlowRun.missingInput(decl, flow: flow.name, origin: context.origin))))
            }
            if decl.isMasked { context.redactor.register(value) }
            if let problem = decl.problem(with: value) {
                throw Stopped(result: result(.error("invalid input: \(context.redactor.redact(problem))")))
            }
            inputValues[name] = value
        }
        var env = Environment()
        env.inputs = inputValues
        env.variables = variables
        env.store = context.store.namespace(flow.namespace)
        env.vars = context.vars
        env.now = await context.clock.now()
        env.redactor = context.redactor
        return env
    }
}
