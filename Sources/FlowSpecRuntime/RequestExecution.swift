import FlowSpecLanguage
import Foundation

/// Request states: build the request, send it through the session (bearer, proactive and reactive refresh,
/// single flight, retry once), then take the first matching transition.
extension FlowRun {
    mutating func request(_ r: RequestState, _ state: State, at index: Int) async -> Step {
        let env: Environment
        do { env = try await environment(reading: state.inputReads) } catch { return .finish(error.result) }
        let built: HTTPRequest
        do throws(EvaluationError) {
            built = try build(r, env)
        } catch {
            return .finish(self.error(error))
        }
        let session = bypassSessions ? nil : compiled.sessions[index].map { context.specs.linkedSessions[$0] }

        let outcome = await send(
            built, state: state.name, session: session,
            isAnswer: { [r] status in session.map { r.answers(status, in: $0.definition) } ?? false })
        let response: HTTPResponse
        switch outcome {
        case .response(let resp):
            response = resp
        case .transportFailure(let failure) where failure.kind == .notSent:
            return .finish(
                result(
                    .error(
                        "\(built.method) \(context.redactor.redactURL(RequestURL.maskingCredentials(failure.url))): \(context.redactor.redact(failure.cause))"
                    )))
        case .transportFailure(let failure):
            if r.unreachable != nil { return .take(edge: Edge.unreachableIndex(transitions: r.transitions.count)) }
            return .finish(
                result(
                    .infrastructure(
                        "\(built.method) \(context.redactor.redactURL(RequestURL.maskingCredentials(failure.url))): \(failure.kind.rawValue): \(context.redactor.redact(failure.cause))"
                    )))
        case .sessionLost(let session, let reason):
            return await sessionLost(session, reason: reason)
        case .refreshUnreachable(let reason):
            return .finish(result(.infrastructure(reason)))
        case .failed(let r):
            return .finish(r)
        }

        var responseEnv = env
        responseEnv.response = response
        responseEnv.store = context.store.namespace(flow.namespace)
        responseEnv.now = await context.clock.now()
        let redactor = context.redactor
        return await take(
            r.transitions, responseEnv,
            noMatch:
                "unhandled response in state `\(state.name)`: \(FlowRun.summary(built, response, redactor: redactor))",
            unhandled: true)
    }

    /// `POST /api/auth/login → 500 {"error":"boom"}`, masked and cut short.
    static func summary(_ request: HTTPRequest, _ response: HTTPResponse, redactor: Redactor) -> String {
        var body: String
        switch response.json {
        case .null: body = ""
        case .string(let s): body = redactor.redact(s)
        default: body = redactor.maskedJSON(response.json).compactJSON
        }
        if body.count > 200 { body = String(body.prefix(200)) + "…" }
        return "\(request.method) \(redactor.redactURL(request.pathWithQuery)) → \(response.status)"
            + (body.isEmpty ? "" : " \(body)")
    }

    func build(_ r: RequestState, _ env: Environment) throws(EvaluationError) -> HTTPRequest {
        var baseURL: String?
        var path = "/"
        var query: [(String, String)] = []
        if let url = r.url {
            let text = try Evaluator.render(url, env)
            for secret in RequestURL.credentials(text) { context.redactor.register(secret) }
            if let problem = RequestURL.absoluteURLProblem(text) {
                throw EvaluationError(
                    location: url.location,
                    message:
                        "`url` \"\(context.redactor.redactURL(RequestURL.maskingCredentials(text)))\" cannot be requested: \(problem)"
                )
            }
            guard let components = URLComponents(string: text), let scheme = components.scheme,
                let host = components.percentEncodedHost
            else {
                throw EvaluationError(
                    location: url.location,
                    message:
                        "`url` must be an absolute URL such as https://host/path, got \"\(context.redactor.redactURL(RequestURL.maskingCredentials(text)))\""
                )
            }
            baseURL = "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
            path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            // The URL's own query is sent too (it used to be dropped), before the state's `query:`.
            for item in components.queryItems ?? [] { query.append((item.name, item.value ?? "")) }
        } else if let p = r.path {
            path = RequestURL.rooted(try Self.renderPath(p, env))
            if let base = flow.baseURL {
                do throws(EvaluationError) {
                    let text = try Evaluator.render(base, env)
                    for secret in RequestURL.credentials(text) { context.redactor.register(secret) }
                    if context.requiresBaseURL, let problem = RequestURL.baseURLProblem(text) {
                        throw EvaluationError(
                            location: base.location,
                            message:
                                "base URL \"\(context.redactor.redactURL(RequestURL.maskingCredentials(text)))\" cannot be used: \(problem)"
                        )
                    }
                    baseURL = text
                } catch {
                    // Scripted backends match on method and path only; a live one must have a base URL.
                    if context.requiresBaseURL { throw error }
                }
            } else if context.requiresBaseURL {
                throw EvaluationError(
                    location: p.location,
                    message: "flow `\(flow.name)` has no `defaults.base_url`, so `path` has no host to go to")
            }
        }
        for (name, t) in r.query { query.append((name, try Evaluator.render(t, env))) }
        var request = HTTPRequest(method: r.method, baseURL: baseURL, path: path, query: query)
        for (name, t) in flow.headers { request.setHeader(name, try Evaluator.render(t, env)) }
        for (name, t) in r.headers { request.setHeader(name, try Evaluator.render(t, env)) }
        switch r.body {
        case .none: break
        case .json(let tv):
            let json = try Evaluator.value(tv, env)
            request.json = json
            if request.header("Content-Type") == nil { request.setHeader("Content-Type", "application/json") }
        case .form(let fields):
            var form: [(String, String)] = []
            for (name, t) in fields { form.append((name, try Evaluator.render(t, env))) }
            request.form = form
            request.body = Data(
                form.map { "\(URLEncoding.encode($0.0))=\(URLEncoding.encode($0.1))" }.joined(separator: "&").utf8)
            if request.header("Content-Type") == nil {
                request.setHeader("Content-Type", "application/x-www-form-urlencoded")
            }
        }
        return request
    }

    /// A path template's text as written, its values encoded as path data (`RequestURL.encodePathValue`): a value
    /// can never add a query, a fragment or another host.
    static func renderPath(_ template: Template, _ env: Environment) throws(EvaluationError) -> String {
        var out = ""
        for part in template.parts {
            switch part {
            case .text(let t): out += t
            case .expr(let e): out += RequestURL.encodePathValue(try Evaluator.evaluate(e, env).interpolated)
            }
        }
        return out
    }

    enum SendOutcome {
        case response(HTTPResponse)
        case transportFailure(TransportError)
        case sessionLost(SessionDef, String)
        case refreshUnreachable(String)
        case failed(FlowResult)
    }

    /// Sends once, or — through a session — with proactive refresh, bearer injection and one retry after a refresh.
    /// A response whose status `isAnswer` (the state's `answers:`, the session's `refresh.not_for`) is never
    /// refreshed: it goes to the state's transitions as it is. Proactive refresh does not look at it.
    mutating func send(
        _ request: HTTPRequest, state: String, session linked: LinkedSession?,
        isAnswer: (Int) -> Bool = { _ in false }
    ) async -> SendOutcome {
        guard let linked else { return await transmit(request, state: state) }
        let session = linked.definition

        if let refresh = session.refresh, let expiresAtExpr = refresh.aheadExpiresAt,
            let marginExpr = refresh.aheadMargin
        {
            let env = await sessionEnvironment(session)
            do throws(EvaluationError) {
                let expiresAt = try Evaluator.evaluate(expiresAtExpr, env)
                let margin = try Evaluator.evaluate(marginExpr, env)
                if case .number(let at) = expiresAt, case .number(let m) = margin, at - env.now < m {
                    let generation = await context.broker.generation(of: session.name)
                    if let stop = await refreshOrStop(linked, sentWith: generation) { return stop }
                }
            } catch {
                return .failed(self.error(error))
            }
        }

        let generation = await context.broker.generation(of: session.name)
        var first = request
        do throws(EvaluationError) { try await addSessionHeaders(session, to: &first) } catch {
            return .failed(self.error(error))
        }
        let firstOutcome = await transmit(first, state: state)
        guard case .response(let response) = firstOutcome, let refresh = session.refresh, let when = refresh.when,
            !isAnswer(response.status)
        else { return firstOutcome }

        var env = await sessionEnvironment(session)
        env.response = response
        do throws(EvaluationError) {
            guard try Evaluator.truth(when, env) else { return firstOutcome }
        } catch {
            return .failed(self.error(error))
        }
        if let stop = await refreshOrStop(linked, sentWith: generation) { return stop }
        // Retry once with the new token; whatever comes back goes to the state's transitions.
        var retry = request
        do throws(EvaluationError) { try await addSessionHeaders(session, to: &retry) } catch {
            return .failed(self.error(error))
        }
        return await transmit(retry, state: state)
    }

    /// Refreshes the session; nil when the request may go on, else what the request ends with (the session lost,
    /// the refresh unreachable, or the refresh flow broken).
    func refreshOrStop(_ linked: LinkedSession, sentWith generation: Int) async -> SendOutcome? {
        switch await refreshSession(linked, sentWith: generation) {
        case .refreshed: nil
        case .failed(let reason): .sessionLost(linked.definition, reason)
        case .unreachable(let reason): .refreshUnreachable(reason)
        case .broken(let reason): .failed(result(.error(reason)))
        }
    }

    func addSessionHeaders(_ session: SessionDef, to request: inout HTTPRequest) async throws(EvaluationError) {
        let env = await sessionEnvironment(session)
        for (name, template) in session.headers
        where request.header(name) == nil || HeaderName.same(name, "Authorization") {
            request.setHeader(name, try Evaluator.render(template, env))
        }
    }

    /// What session expressions see: the session's namespace, run variables and the clock; no flow variables.
    func sessionEnvironment(_ session: SessionDef) async -> Environment {
        var env = Environment()
        env.store = context.store.namespace(session.namespace)
        env.vars = context.vars
        env.now = await context.clock.now()
        env.redactor = context.redactor
        return env
    }

    func refreshSession(_ linked: LinkedSession, sentWith generation: Int) async -> SessionBroker.RefreshOutcome {
        let session = linked.definition
        guard let refresh = session.refresh else { return .failed("session `\(session.name)` has no refresh") }
        guard let refreshFlow = linked.refreshFlow else {
            return .broken("in refresh flow `\(refresh.flow.name)`: unknown flow `\(refresh.flow.name)`")
        }
        let interpreter = self.interpreter
        let store = context.store
        let parent = traceID
        return await context.broker.refresh(session.name, sentWith: generation) {
            let result = await interpreter.run(refreshFlow, bypassSessions: true, parent: parent)
            if result.success { return .refreshed }
            // No answer is not a rejection: an offline device keeps its session.
            if result.isInfrastructureFailure {
                return .unreachable("refresh flow `\(refresh.flow.name)` got no response: \(result.reason)")
            }
            // A broken refresh flow is a spec problem to report, not a reason to sign the user out.
            if case .error(let message) = result.ending {
                return .broken("in refresh flow `\(refresh.flow.name)`: \(message)")
            }
            store.clear(session.namespace)
            return .failed(
                "refresh flow `\(refresh.flow.name)` ended \(result.outcome)\(result.reason.isEmpty ? "" : ": \(result.reason)")"
            )
        }
    }

    func sessionLost(_ session: SessionDef, reason: String) async -> Step {
        guard let refresh = session.refresh else { return .finish(result(.error(reason))) }
        var text = reason
        if let template = refresh.failureReason {
            text = (try? Evaluator.render(template, await sessionEnvironment(session))) ?? reason
        }
        return .finish(
            result(
                .end(
                    outcome: refresh.failureOutcome, success: false, reason: context.redactor.redact(text), outputs: [:]
                )))
    }

    func transmit(_ prepared: HTTPRequest, state: String) async -> SendOutcome {
        // The run's cookies go on here, so the log, `--verbose` and request expectations see what was sent.
        var request = prepared
        context.cookies.attach(to: &request)
        // What goes out as a credential is a secret, whatever it came from (a variable named `qa_login_value`).
        context.redactor.registerSent(request)
        let started = context.stopwatch.seconds()
        func entry(_ response: HTTPResponse?, _ failure: TransportError?) -> ExchangeLog.Entry {
            .init(
                flow: flow.name, state: state, request: request, response: response, failure: failure, run: traceID,
                visit: path.count - 1,
                durationSeconds: context.stopwatch.seconds() - started)
        }
        do {
            let response = try await context.adapter.send(request)
            context.cookies.record(response, for: request, redactor: context.redactor)
            context.log.record(entry(response, nil))
            return .response(response)
        } catch {
            context.log.record(entry(nil, error))
            return .transportFailure(error)
        }
    }
}
