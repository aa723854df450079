import FlowSpecLanguage
import FlowSpecRuntime

/// Code sending is limited: a burst of sends to one destination is refused past the first (SMS pumping and mail
/// bombing start where it is not).
enum SendLimitAttack: ProbeAttack {
    static let name = "send_limit"
    static let title = "code-send rate limit"
    static let stage = ProbeStage.own
    static let options = [
        ProbeOption(
            "flow", .flow,
            "A flow that asks the backend to send one code (it ends with success when the send is accepted).",
            required: true),
        ProbeOption("inputs", .inputs, "Its inputs: the one destination (a phone, an email) every send goes to."),
        ProbeOption("burst", .integer(2...20), "How many sends in a row (default 3)."),
    ]
    static let sends =
        "`flow` `burst` times in a row to one destination: the first spaced from the last login by `login.interval`, the rest at once"
    static let control = "the first send is accepted"
    static let heldWhen = "a later send of the burst is refused (429 or another 4xx)"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let promise = c.promise, let flow = promise.names("flow").first?.name else { return [] }
        let burst = promise.int("burst") ?? 3
        var sends: [ProbeSession.Login] = []
        for i in 0..<burst {
            // The first send keeps the login interval (it may go to the login's own phone); the rest come at once.
            let send = await c.probe.login(flow: flow, inputs: promise.inputs("inputs") ?? .init(), paced: i == 0)
            sends.append(send)
            if !send.succeeded { break }
        }
        guard let first = sends.first, first.succeeded else {
            let why = sends.first.map { "`\($0.result.outcome)`: \($0.result.reason)" } ?? ""
            return [
                c.verdict(
                    "", .error, "not checked: the control failed: the first send ended \(why)",
                    infrastructure: sends.first?.unreachable ?? false)
            ]
        }
        guard let refused = sends.dropFirst().first(where: { !$0.succeeded }) else {
            return [
                c.verdict(
                    "", .broken, "all \(burst) sends to one destination were accepted, one right after another",
                    evidence: sends.flatMap(\.log))
            ]
        }
        let index = sends.firstIndex { !$0.succeeded }! + 1
        let status = refused.log.last?.response?.status
        if refused.unreachable {
            return [c.verdict("", .error, "not checked: send \(index) had no answer", infrastructure: true)]
        }
        if let status, status >= 500 {
            return [
                c.verdict(
                    "", .broken, "send \(index) was answered \(status), a server error, instead of a refusal",
                    evidence: refused.log)
            ]
        }
        return [
            c.verdict(
                "", .held,
                "send \(index) of \(burst) was refused (\(status.map(String.init) ?? refused.result.outcome)); the control: the first was accepted"
            )
        ]
    }
}

extension ProbeKind {
    package static let sendLimit = ProbeKind(SendLimitAttack.self)
}
