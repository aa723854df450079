import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// A login's refusal does not tell whether the account exists (OWASP ASVS V2.2, CWE-204): an unknown account and a
/// known one with a wrong secret get the same status and body (the identifiers they were sent aside).
enum EnumerationAttack: ProbeAttack {
    static let name = "enumeration"
    static let title = "account enumeration"
    static let stage = ProbeStage.own
    static let options = [
        ProbeOption("flow", .flow, "The flow to send both through (a login, or its first step).", required: true),
        ProbeOption("unknown", .inputs, "Its inputs for an account that does not exist.", required: true),
        ProbeOption(
            "wrong", .inputs, "Its inputs for an account that exists, with a wrong password (or other secret).",
            required: true),
    ]
    static let sends = "the flow twice: for an account that does not exist, and for one that exists with a wrong secret"
    static let control =
        "neither gets through (the flow does not end with success), and the probe file's login succeeds"
    static let heldWhen =
        "every request of the two runs gets the same status and body, once each request's own identifiers are set aside (a generic `200` for both, as a magic-link request gives, holds too)"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let promise = c.promise, let flow = promise.names("flow").first?.name,
            let unknown = promise.inputs("unknown"),
            let wrong = promise.inputs("wrong")
        else { return [] }
        let control = await c.probe.login()
        guard control.succeeded else { return [c.notLoggedIn(control)] }
        if c.probe.declaration.logout != nil { _ = await c.probe.logout(tokens: control.tokens) }
        var runs: [[(entry: ExchangeLog.Entry, body: String)]] = []
        for (what, inputs) in [("the unknown account", unknown), ("the wrong secret", wrong)] {
            let attempt = await c.probe.login(flow: flow, inputs: inputs, paced: false)
            guard !attempt.log.isEmpty, attempt.log.allSatisfy({ $0.response != nil }) else {
                return [
                    c.verdict(
                        "", .error,
                        "not checked: \(what): \(flow) sent nothing or had no answer (it ended `\(attempt.result.outcome)`)",
                        infrastructure: attempt.unreachable)
                ]
            }
            if attempt.succeeded {
                return [
                    c.verdict(
                        "", .error,
                        "not checked: the control failed: \(flow) with \(what) succeeded — check the declared inputs")
                ]
            }
            runs.append(
                attempt.log.map { entry in
                    let sent = Set(entry.request.json.map(Self.strings) ?? []).union(entry.request.form?.map(\.1) ?? [])
                        .filter { $0.count >= 3 }
                    var body = String(decoding: entry.response?.body ?? Data(), as: UTF8.self)
                    for value in sent.sorted(by: { $0.count > $1.count }) {
                        body = body.replacingOccurrences(of: value, with: "…")
                    }
                    return (entry, body)
                })
        }
        // Step by step: the same requests must get the same answers, whichever account they name.
        for (i, (a, b)) in zip(runs[0], runs[1]).enumerated() {
            let (sa, sb) = (a.entry.response?.status ?? 0, b.entry.response?.status ?? 0)
            guard a.entry.request.path == b.entry.request.path else { break }
            if sa != sb || a.body != b.body {
                let differs = sa != sb ? "statuses \(sa) and \(sb)" : "bodies (both \(sa))"
                return [
                    c.verdict(
                        "", .broken,
                        "\(a.entry.request.method) \(a.entry.request.path) (request \(i + 1)) answers an unknown account and a wrong secret with different \(differs): the answer tells whether the account exists",
                        evidence: [a.entry, b.entry])
                ]
            }
        }
        if runs[0].count != runs[1].count
            || zip(runs[0], runs[1]).contains(where: { $0.entry.request.path != $1.entry.request.path })
        {
            return [
                c.verdict(
                    "", .broken,
                    "the flow went differently for an unknown account (\(runs[0].map(\.entry.request.path).joined(separator: " → "))) and a wrong secret (\(runs[1].map(\.entry.request.path).joined(separator: " → "))): the answers tell whether the account exists",
                    evidence: runs[0].map(\.entry) + runs[1].map(\.entry))
            ]
        }
        let statuses = runs[0].map { String($0.entry.response?.status ?? 0) }.joined(separator: ", ")
        return [
            c.verdict(
                "", .held,
                "both got the same answers (\(statuses)), the same bodies; the control: neither got through, and the probe file's login succeeded"
            )
        ]
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
    package static let enumeration = ProbeKind(EnumerationAttack.self)
}
