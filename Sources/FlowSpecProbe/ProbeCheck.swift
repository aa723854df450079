import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

/// One probe kind run against one session: the moves, and the verdicts they lead to.
struct ProbeCheck: Sendable {
    let probe: ProbeSession
    let kind: ProbeKind
    let source: String
    /// The declared promise; nil for a universal attack the probe file does not mention.
    let promise: ProbeDeclaration.Promise?
    /// The other sessions' probes (isolation logs in to them).
    let runner: ProbeRunner

    var environment: ProbeEnvironment { probe.environment }
    var sessionName: String { probe.declaration.session.name }

    func verdict(
        _ check: String, _ status: ProbeVerdict.Status, _ detail: String, evidence: [ExchangeLog.Entry] = [],
        infrastructure: Bool = false,
        reproduction: Reproduction? = nil
    ) -> ProbeVerdict {
        ProbeVerdict(
            session: sessionName, kind: kind, check: check, status: status, detail: environment.redactor.redact(detail),
            source: source,
            evidence: status == .broken ? evidence.map { ExchangeRecord($0, redactor: environment.redactor) } : [],
            infrastructure: infrastructure, reproduction: status == .broken ? reproduction : nil)
    }

    /// The verdict when the login the probe needs did not succeed: an error with the login's own reason (a failed
    /// precondition is a failure), or skipped where the login itself was skipped for a reason the user chose.
    func notLoggedIn(_ login: ProbeSession.Login) -> ProbeVerdict {
        if case .skipped(_, let reason) = login.result.ending { return verdict("", .skipped, reason) }
        return verdict(
            "", .error,
            "not checked: could not log in with \(probe.declaration.login.name): it ended `\(login.result.outcome)`: \(login.result.reason)",
            infrastructure: login.unreachable)
    }

    /// Logs in, runs `body`, and logs out again.
    func withLogin(_ body: (ProbeSession.Login) async -> [ProbeVerdict]) async -> [ProbeVerdict] {
        let login = await probe.login()
        guard login.succeeded else { return [notLoggedIn(login)] }
        return await body(login)
    }

    func accessToken(_ tokens: [String: JSONValue]) -> String? {
        probe.accessTokenKey.flatMap { tokens[$0]?.stringValue }.flatMap { $0.isEmpty ? nil : $0 }
    }

    func refreshToken(_ tokens: [String: JSONValue]) -> String? {
        tokens[probe.refreshTokenKey]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }

    func noAccessToken() -> [ProbeVerdict] {
        [
            verdict(
                "", .error,
                "not checked: the login stored no access token under `\(probe.accessTokenKey ?? "?")` (the key the session's headers send)"
            )
        ]
    }

    func noRefreshToken() -> [ProbeVerdict] {
        [
            verdict(
                "", .error,
                "not checked: the login stored no refresh token under `\(probe.refreshTokenKey)` (set `refresh_token_key:` in the probe file)"
            )
        ]
    }

    /// Whether the backend refused: one of the declared statuses, or any 4xx when none is declared; a 5xx never is.
    /// `reproduce`: how to write the attack for the flow and state that sent it, where the language can.
    /// `controlWhen`: when the control was made, where it was not just before (`"before the logout, "`).
    func refusal(
        _ check: String, _ answers: [(String, ProbeSession.Answer)], controlWhen: String = "",
        reproduce: (_ flow: String, _ state: String) -> Reproduction? = { _, _ in nil }
    ) -> ProbeVerdict {
        var refusedWith: [String] = []
        for (flow, answer) in answers {
            switch answer {
            case .notSent(let why): return verdict(check, .error, "not checked: " + why)
            case .unreachable(let why, _):
                return verdict(check, .error, "not checked: \(flow): no answer: \(why)", infrastructure: true)
            case .answered(let status, let entry, let state):
                let reproduction = reproduce(flow, state)
                let refused = probe.declaration.refused
                if refused.isEmpty ? (400..<500).contains(status) : refused.contains(status) {
                    refusedWith.append("\(flow) \(status)")
                } else if status >= 500 {
                    return verdict(
                        check, .broken, "\(flow) answered \(status), a server error, instead of refusing",
                        evidence: [entry], reproduction: reproduction)
                } else if (400..<500).contains(status) {
                    return verdict(
                        check, .broken,
                        "\(flow) refused with \(status), but the documented refusal is \(refused.map(String.init).joined(separator: " or "))",
                        evidence: [entry], reproduction: reproduction)
                } else {
                    return verdict(
                        check, .broken, "\(flow) accepted it: \(status)", evidence: [entry], reproduction: reproduction)
                }
            }
        }
        return verdict(check, .held, "refused (\(refusedWith.joined(separator: ", ")))" + controlHeld(controlWhen))
    }

    /// The control of the token probes: every protected flow accepts the session's own token, here and now. nil when
    /// it did; otherwise the ERROR that says why the refusals that follow would prove nothing.
    func protectedControl(_ token: String, tokens: [String: JSONValue]) async -> ProbeVerdict? {
        for flow in probe.declaration.protected {
            switch await probe.answer(flow.name, token: token, replacement: token, tokens: tokens) {
            case .notSent(let why): return verdict("", .error, "not checked: the control: " + why)
            case .unreachable(let why, _):
                return verdict(
                    "", .error, "not checked: the control: \(flow.name): no answer: \(why)", infrastructure: true)
            case .answered(let status, _, _) where !(200..<300).contains(status):
                return verdict(
                    "", .error,
                    "not checked: the control failed: \(flow.name) answered \(status) to the session's own token, so a refusal would prove nothing"
                )
            case .answered: continue
            }
        }
        return nil
    }

    /// What the control saw, for a held verdict's detail.
    func controlHeld(_ when: String = "") -> String {
        "; the control: \(when)the session's own token was accepted by \(probe.declaration.protected.map(\.name).joined(separator: ", "))"
    }

    /// The ERROR of a refresh attack whose control — the refresh flow with the session's fresh refresh token — failed.
    func freshRefreshRefused(_ refresh: ProbeSession.Refresh) -> ProbeVerdict {
        verdict(
            "", .error,
            "not checked: the control failed: the refresh flow refused the session's fresh refresh token: \(refresh.result.outcome): \(refresh.result.reason)",
            infrastructure: refresh.result.isInfrastructureFailure)
    }

    /// Sends `replacement` in place of the access token to every protected flow.
    func protectedAnswers(token: String, replacement: String?, tokens: [String: JSONValue]) async -> [(
        String, ProbeSession.Answer
    )] {
        var answers: [(String, ProbeSession.Answer)] = []
        for flow in probe.declaration.protected {
            answers.append(
                (flow.name, await probe.answer(flow.name, token: token, replacement: replacement, tokens: tokens)))
        }
        return answers
    }

    /// Runs the logout flow: `failed` is the ERROR when it did not log out — the flow did not end with success, or
    /// the request that carried the access token was not answered as `logout.answers` declares (default 2xx): a
    /// logout the backend refused (an access token that expired meanwhile) ended nothing, so proves nothing.
    func logOut(_ tokens: [String: JSONValue]) async -> (log: [ExchangeLog.Entry], failed: ProbeVerdict?) {
        let logout = await probe.logout(tokens: tokens)
        let access = accessToken(tokens) ?? "\u{0}"
        let sent = logout.log.last { $0.request.headers.contains { $0.1.contains(access) } }?.response
        if let sent, !probe.declaration.loggedOut(sent.status) {
            let expected =
                probe.declaration.logoutAnswers.isEmpty
                ? "a 2xx" : probe.declaration.logoutAnswers.map(String.init).joined(separator: " or ")
            return (
                logout.log,
                verdict(
                    "", .error,
                    "not checked: the logout request was answered \(sent.status), not \(expected), so it ended nothing to check"
                        + " (if \(sent.status) is how this backend answers a logout that worked, declare it: `logout: { flow: \(probe.declaration.logout?.name ?? "…"), answers: [\(sent.status)] }`)"
                )
            )
        }
        if !logout.result.success, !(sent.map { probe.declaration.loggedOut($0.status) } ?? false) {
            return (
                logout.log,
                verdict(
                    "", .error,
                    "not checked: the logout flow ended `\(logout.result.outcome)`: \(logout.result.reason)",
                    infrastructure: logout.result.isInfrastructureFailure)
            )
        }
        return (logout.log, nil)
    }

    /// Logs out after the probes, so they leave no sessions behind. Best effort.
    func cleanUp(_ tokens: [String: JSONValue]) async {
        guard probe.declaration.logout != nil else { return }
        _ = await probe.logout(tokens: tokens)
    }
}
