import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

/// The moves probes are made of, for one declared session: log in, refresh with a chosen refresh token, call the
/// protected flows with a chosen access token, log out. Each uses a store of its own.
struct ProbeSession: Sendable {
    let declaration: ProbeDeclaration
    let session: SessionDef
    let environment: ProbeEnvironment
    let pacer: LoginPacer

    var namespace: String { session.namespace }
    /// The store key the session's headers send (`Bearer ${store.access_token}` → `access_token`).
    var accessTokenKey: String? { session.accessTokenKey }
    var refreshTokenKey: String { declaration.refreshTokenKey }

    struct Login: Sendable {
        var result: FlowResult
        var tokens: [String: JSONValue]
        var codes: [String: String]
        var log: [ExchangeLog.Entry]
        /// Every code given, in order.
        var codeHistory: [(name: String, value: String)] = []

        var succeeded: Bool { result.success }
        /// The backend did not answer, even where the flow handled it (`unreachable:`): exit 3, not a pass.
        var unreachable: Bool { result.isInfrastructureFailure || log.contains { $0.failure != nil } }
    }

    /// Logs in with the declared flow and inputs, or `flow` with `inputs`. Inputs for the declared login flow (another
    /// account's) are laid over the declared ones, so an account given by its email and password keeps the login's
    /// code command. `fixedCodes` replaces what code inputs would be given; `firstCodes` is given first, and a flow
    /// that asks again gets what the inputs would give.
    /// `adapter` and `observe`: the attempt-limits probe's guessing adapter, told each input as it is handed out.
    func login(
        flow: String? = nil, inputs: ScenarioInputs? = nil, fixedCodes: [String: String] = [:],
        firstCodes: [String: String] = [:],
        adapter: (any HTTPAdapter)? = nil, paced: Bool = true,
        observe: @escaping @Sendable (InputDecl, String) -> Void = { _, _ in }
    ) async -> Login {
        let flow = flow ?? declaration.login.name
        switch paced ? environment.requiredSeconds(declaration.loginInterval) : nil {
        case .failure(let problem)?:
            return Login(
                result: FlowResult(flow: flow, ending: .skipped(outcome: "not_checked", reason: problem.message)),
                tokens: [:], codes: [:], log: [])
        case .success(let interval)?:
            if let reason = await pacer.waitForTurn(
                interval: interval, clock: environment.clock, allowWait: environment.allowWait,
                onWait: {
                    environment.onWait(
                        "\(declaration.session.name): waiting \(Durations.describe($0)) before the next login (login.interval)"
                    )
                })
            {
                return Login(
                    result: FlowResult(flow: flow, ending: .skipped(outcome: "not_checked", reason: reason)),
                    tokens: [:], codes: [:], log: [])
            }
        case nil: break
        }
        let store = TokenStore(redactor: environment.redactor)
        let now = await environment.clock.now()
        var values: [String: [String]] = [:]
        var commands: [String: String] = [:]
        do {
            let given =
                inputs.map { flow == declaration.login.name ? declaration.loginInputs.overlaid(by: $0) : $0 }
                ?? declaration.loginInputs
            (values, commands) = try given.resolved(environment.vars, now: now, environment.redactor, origin: .probe)
        } catch {
            return Login(
                result: FlowResult(flow: flow, ending: .error(error.message), path: [], variables: [:]), tokens: [:],
                codes: [:], log: [])
        }
        for (name, code) in fixedCodes {
            values[name] = [code]
            commands[name] = nil
        }
        for (name, code) in firstCodes { values[name] = [code] + (values[name] ?? []) }
        for decl in secretInputs(flow) { for value in values[decl] ?? [] { environment.redactor.register(value) } }
        let inputs = RecordingInputSource(
            LayeredInputSource(
                values: values, commands: commands, commandTimeout: environment.commandTimeout,
                redactor: environment.redactor), observe: observe)
        let log = ExchangeLog()
        let context = environment.context(store: store, inputs: inputs, adapter: adapter, log: log)
        let result = await Interpreter(context: context).run(flow: flow)
        let tokens = store.namespace(namespace)
        // The probe knows which keys hold the tokens, whatever they are called: mask them by that.
        for key in [accessTokenKey, refreshTokenKey].compactMap({ $0 }) {
            if let value = tokens[key] { environment.redactor.register(value) }
        }
        return Login(
            result: result, tokens: tokens, codes: inputs.codeValues, log: log.entries, codeHistory: inputs.codeHistory)
    }

    /// The login's inputs that a flow uses as secrets (declared `secret: true` or `type: code`, or sent as a credential).
    private func secretInputs(_ flow: String) -> [String] {
        let used = environment.contexts.secretUses.inputs
        return environment.specs.reachable(from: [flow]).flows.flatMap { $0.inputs.map(\.name).filter(used.contains) }
    }

    struct Refresh: Sendable {
        var accepted: Bool
        var refreshToken: String?
        /// The namespace after the refresh: the new pair when it was accepted.
        var tokens: [String: JSONValue]
        var result: FlowResult
        var log: [ExchangeLog.Entry]
    }

    /// Runs the session's refresh flow with `refreshToken` in the store.
    func refresh(with refreshToken: String, tokens: [String: JSONValue]) async -> Refresh {
        var values = tokens
        values[refreshTokenKey] = .string(refreshToken)
        let store = TokenStore([namespace: values], redactor: environment.redactor)
        let log = ExchangeLog()
        let context = environment.context(store: store, inputs: ListInputSource([:]), log: log)
        guard let flow = session.refresh?.flow.name else {
            return Refresh(
                accepted: false, refreshToken: nil, tokens: tokens,
                result: FlowResult(flow: "", ending: .error("no refresh flow")), log: [])
        }
        let result = await Interpreter(context: context).run(flow: flow, bypassSessions: true)
        let after = store.get(namespace, refreshTokenKey)
        if case .string(let token) = after { environment.redactor.register(token) }
        return Refresh(
            accepted: result.success, refreshToken: after.stringValue, tokens: store.namespace(namespace),
            result: result,
            log: log.entries)
    }

    /// What the backend answered when a protected flow sent `replacement` (nil: no token at all) instead of the
    /// session's access token.
    enum Answer: Sendable {
        /// `state`: the protected flow's state that sent the token.
        case answered(status: Int, entry: ExchangeLog.Entry, state: String)
        case unreachable(String, entry: ExchangeLog.Entry?)
        /// The flow never sent the token (it ended before, or refreshed ahead of expiry).
        case notSent(String)
    }

    func answer(_ protected: String, token: String, replacement: String?, tokens: [String: JSONValue]) async -> Answer {
        let store = TokenStore([namespace: tokens], redactor: environment.redactor)
        let swap = TokenSwapAdapter(environment.adapter, target: token, replacement: replacement)
        let log = ExchangeLog()
        let context = environment.context(
            store: store, inputs: ListInputSource([:]), adapter: swap, log: log,
            specs: session.withoutRefresh(in: environment.specs))
        let result = await Interpreter(context: context).run(flow: protected)
        guard let observed = swap.observed else {
            return .notSent(
                "\(protected) sent no request with the session's token (it ended `\(result.outcome)`: \(environment.redactor.redact(result.reason)))"
            )
        }
        let sentBy = log.entries.first { $0.request.headers.contains { $0.1.contains(token) } }?.state ?? ""
        let entry = ExchangeLog.Entry(
            flow: protected, state: sentBy, request: observed.request, response: observed.response,
            failure: observed.failure)
        if let response = observed.response { return .answered(status: response.status, entry: entry, state: sentBy) }
        return .unreachable(
            observed.failure.map { "\($0.kind.rawValue): \(environment.redactor.redact($0.cause))" } ?? "no response",
            entry: entry)
    }

    /// Runs a flow of the session with `tokens` in its store (its refresh off, as for the protected flows): the
    /// result, the namespace afterwards, and the exchanges.
    func run(_ flow: String, tokens: [String: JSONValue]) async -> (
        result: FlowResult, tokens: [String: JSONValue], log: [ExchangeLog.Entry]
    ) {
        let store = TokenStore([namespace: tokens], redactor: environment.redactor)
        let log = ExchangeLog()
        let context = environment.context(
            store: store, inputs: ListInputSource([:]), log: log, specs: session.withoutRefresh(in: environment.specs))
        let result = await Interpreter(context: context).run(flow: flow)
        return (result, store.namespace(namespace), log.entries)
    }

    /// Runs the logout flow with the session's tokens.
    func logout(tokens: [String: JSONValue]) async -> (result: FlowResult, log: [ExchangeLog.Entry]) {
        guard let logout = declaration.logout else {
            return (FlowResult(flow: "", ending: .error("no logout flow"), path: [], variables: [:]), [])
        }
        let store = TokenStore([namespace: tokens], redactor: environment.redactor)
        let log = ExchangeLog()
        // A refresh ahead of expiry would log out a newer token than the one the probe then presents.
        let context = environment.context(
            store: store, inputs: ListInputSource([:]), log: log,
            specs: session.withoutRefresh(in: environment.specs))
        let result = await Interpreter(context: context).run(flow: logout.name)
        return (result, log.entries)
    }
}

extension ScenarioInputs {
    /// These inputs with `other`'s in place of any of the same name, whether a value or a command.
    func overlaid(by other: ScenarioInputs) -> ScenarioInputs {
        var out = self
        for name in other.names {
            out.values[name] = other.values[name]
            out.commands[name] = other.commands[name]
        }
        return out
    }
}

extension JSONValue {
    var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
}

/// Keeps logins of one account apart by the declared interval (a per-phone send interval), waiting as needed.
actor LoginPacer {
    private var last: Double?
    static let margin = 1.0

    /// nil once it is this login's turn; the reason when waiting would take longer than the run may wait.
    func waitForTurn(interval: Double, clock: any FlowClock, allowWait: Double, onWait: @Sendable (Double) -> Void)
        async -> String?
    {
        let now = await clock.now()
        // The interval runs from the previous *send*, which came some way into the previous login — further in than
        // this login's send may come (a first login also opens its connection): a second of margin keeps the send
        // outside the backend's window ("you can only request this after 0 seconds" was seen without it).
        // The margin never makes a wait the run allows into one it does not.
        if let last, interval > 0, now - last < interval + LoginPacer.margin {
            let needed = interval - (now - last)
            guard needed <= allowWait else {
                return Durations.waitNotAllowed("the login interval", seconds: needed, limit: allowWait)
            }
            let wait = min(needed + LoginPacer.margin, max(needed, allowWait))
            onWait(wait)
            await clock.sleep(seconds: wait)
        }
        last = await clock.now()
        return nil
    }
}

extension SessionDef {
    /// The store key the session's headers send (`Bearer ${store.access_token}` → `access_token`).
    var accessTokenKey: String? {
        headers.lazy.flatMap { $0.1.expressions.flatMap { $0.storeReads.map(\.0) } }.first
    }

    /// The specs with this session's refresh switched off: a probe wants the backend's answer to the token it
    /// sends, and a refresh would rotate (or, with an old token, revoke) the session the next probes use.
    func withoutRefresh(in specs: SpecSet) -> SpecSet {
        guard var session = specs.sessions[name] else { return specs }
        session.refresh = nil
        return specs.replacing(session)
    }
}
