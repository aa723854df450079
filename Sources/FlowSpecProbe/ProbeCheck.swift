import Foundation
import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios

/// One probe kind run against one session: the moves, and the verdicts they lead to.
struct ProbeCheck: Sendable {
    let probe: ProbeSession
    let kind: ProbeKind
    let source: String

    var environment: ProbeEnvironment { probe.environment }
    var sessionName: String { probe.declaration.session.name }

    func verdict(_ check: String, _ status: ProbeVerdict.Status, _ detail: String, evidence: [ExchangeLog.Entry] = [], infrastructure: Bool = false) -> ProbeVerdict {
        ProbeVerdict(session: sessionName, kind: kind, check: check, status: status, detail: environment.redactor.redact(detail), source: source,
                     evidence: status == .broken ? evidence.map { ExchangeRecord($0, redactor: environment.redactor) } : [],
                     infrastructure: infrastructure)
    }

    /// Logs in, or says why the probe could not.
    func loggedIn(_ check: String = "") async -> Result<ProbeSession.Login, ProbeVerdictBox> {
        let login = await probe.login()
        guard login.succeeded else {
            let infrastructure = login.result.isInfrastructureFailure
            return .failure(ProbeVerdictBox(verdict(check, .skipped, "could not log in with \(probe.declaration.login.name): it ended `\(login.result.outcome)`: \(login.result.reason)",
                                                    infrastructure: infrastructure)))
        }
        return .success(login)
    }

    func token(_ key: String?, in login: ProbeSession.Login) -> String? {
        key.flatMap { login.tokens[$0]?.stringValue }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the backend refused: one of the declared statuses, or any 4xx when none is declared; a 5xx never is.
    func refusal(_ check: String, _ answers: [(String, ProbeSession.Answer)]) -> ProbeVerdict {
        var refusedWith: [String] = []
        for (flow, answer) in answers {
            switch answer {
            case .notSent(let why): return verdict(check, .skipped, why)
            case .unreachable(let why, _): return verdict(check, .skipped, "\(flow): no answer: \(why)", infrastructure: true)
            case .answered(let status, let entry):
                let refused = probe.declaration.refused
                if refused.isEmpty ? (400..<500).contains(status) : refused.contains(status) {
                    refusedWith.append("\(flow) \(status)")
                } else if status >= 500 {
                    return verdict(check, .broken, "\(flow) answered \(status), a server error, instead of refusing", evidence: [entry])
                } else if (400..<500).contains(status) {
                    return verdict(check, .broken, "\(flow) refused with \(status), but the documented refusal is \(refused.map(String.init).joined(separator: " or "))", evidence: [entry])
                } else {
                    return verdict(check, .broken, "\(flow) accepted it: \(status)", evidence: [entry])
                }
            }
        }
        return verdict(check, .held, "refused (\(refusedWith.joined(separator: ", ")))")
    }

    /// Sends `replacement` in place of the access token to every protected flow.
    func protectedAnswers(token: String, replacement: String?, tokens: [String: JSONValue]) async -> [(String, ProbeSession.Answer)] {
        var answers: [(String, ProbeSession.Answer)] = []
        for flow in probe.declaration.protected {
            answers.append((flow.name, await probe.answer(flow.name, token: token, replacement: replacement, tokens: tokens)))
        }
        return answers
    }

    /// Logs in, runs `body`, and logs out again.
    func withLogin(_ body: (ProbeSession.Login) async -> [ProbeVerdict]) async -> [ProbeVerdict] {
        switch await loggedIn() {
        case .failure(let box): return [box.verdict]
        case .success(let login):
            let verdicts = await body(login)
            await cleanUp(login)
            return verdicts
        }
    }

    /// Logs out after a probe that logged in, so probes leave no sessions behind. Best effort.
    func cleanUp(_ login: ProbeSession.Login) async {
        guard probe.declaration.logout != nil else { return }
        _ = await probe.logout(tokens: login.tokens)
    }
}

/// A verdict carried as an error, for early exits.
struct ProbeVerdictBox: Error, Sendable {
    let verdict: ProbeVerdict
    init(_ verdict: ProbeVerdict) { self.verdict = verdict }
}
