import Foundation
import FlowSpecLanguage
import FlowSpecRuntime

/// A login's refusal does not tell whether the account exists (OWASP ASVS V2.2, CWE-204): an unknown account and a
/// known one with a wrong secret get the same status and body (the identifiers they were sent aside).
enum EnumerationAttack: ProbeAttack {
    static let name = "enumeration"
    static let title = "account enumeration"
    static let stage = ProbeStage.own
    static let options = [
        ProbeOption("flow", .flow, "The flow to send both through (a login, or its first step).", required: true),
        ProbeOption("unknown", .inputs, "Its inputs for an account that does not exist.", required: true),
        ProbeOption("wrong", .inputs, "Its inputs for an account that exists, with a wrong password (or other secret).", required: true),
    ]
    static let sends = "the flow twice: for an account that does not exist, and for one that exists with a wrong secret"
    static let control = "both are refused (not 2xx), and the probe file's login succeeds"
    static let heldWhen = "the two refusals have the same status and the same body, once each request's own identifiers are set aside"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let promise = c.promise, let flow = promise.names("flow").first?.name, let unknown = promise.inputs("unknown"),
              let wrong = promise.inputs("wrong") else { return [] }
        let control = await c.probe.login()
        guard control.succeeded else { return [c.notLoggedIn(control)] }
        if c.probe.declaration.logout != nil { _ = await c.probe.logout(tokens: control.tokens) }
        var answers: [(entry: ExchangeLog.Entry, body: String)] = []
        for (what, inputs) in [("the unknown account", unknown), ("the wrong secret", wrong)] {
            let attempt = await c.probe.login(flow: flow, inputs: inputs, paced: false)
            guard let last = attempt.log.last, let response = last.response else {
                return [c.verdict("", .error, "not checked: \(what): \(flow) sent nothing or had no answer (it ended `\(attempt.result.outcome)`)", infrastructure: attempt.unreachable)]
            }
            if (200..<300).contains(response.status) {
                return [c.verdict("", .error, "not checked: the control failed: \(flow) with \(what) was answered \(response.status), not refused — check the declared inputs")]
            }
            let sent = Set(last.request.json.map(Self.strings) ?? []).union(last.request.form?.map(\.1) ?? []).filter { $0.count >= 3 }
            var body = String(decoding: response.body, as: UTF8.self)
            for value in sent.sorted(by: { $0.count > $1.count }) { body = body.replacingOccurrences(of: value, with: "…") }
            answers.append((last, body))
        }
        let (a, b) = (answers[0], answers[1])
        let (sa, sb) = (a.entry.response?.status ?? 0, b.entry.response?.status ?? 0)
        if sa != sb || a.body != b.body {
            let differs = sa != sb ? "statuses \(sa) and \(sb)" : "bodies (both \(sa))"
            return [c.verdict("", .broken, "an unknown account and a wrong secret get different \(differs): the answer tells whether the account exists",
                              evidence: [a.entry, b.entry])]
        }
        return [c.verdict("", .held, "both were answered \(sa) with the same body; the control: the probe file's login succeeded")]
    }

    static func strings(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let s): [s]
        case .array(let items): items.flatMap(strings)
        case .object(let fields): fields.values.flatMap(strings)
        default: []
        }
    }
}

extension ProbeKind {
    public static let enumeration = ProbeKind(EnumerationAttack.self)
}
