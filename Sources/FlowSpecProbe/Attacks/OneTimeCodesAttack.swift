import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios

/// A login code works once: replayed at once, and offered in a new login.
///
/// Replaying the very request that redeemed a code proves a broken promise when it is accepted, but its refusal
/// proves nothing: the login context it belonged to (a pre-auth token, a flow id) may be gone (a real server answered
/// 410), and no legitimate request can be made in a context that no longer exists. So the held verdict comes from a
/// new login: the used code is offered first, and the control is a fresh code in that same login (or, where the flow
/// does not ask again, in the next).
enum OneTimeCodesAttack: ProbeAttack {
    static let name = "one_time_codes"
    static let title = "one-time codes"
    static let options = [
        ProbeOption(
            "logins", .logins,
            "Other login flows of this session that take a code (magic link, SMS, customer code), each with its inputs; each gets the same checks. One whose inputs read a run variable that is not given is skipped, naming it."
        ),
        ProbeOption(
            "login_code_reusable", .boolean,
            "`true`: the probe file's own login uses a code that is reusable by design (a test phone's fixed code), so only `logins:` are checked."
        ),
    ]
    static let sends =
        "right after a login, the very request that redeemed its code (an input of `type: code`) again; then a new login offered that used code first"
    static let control =
        "in the new login, a fresh code is accepted after the used one was refused (the flow asks again; otherwise a further login)"
    static let heldWhen =
        "the replay and the used code in the new login are refused. *n/a* when the login asks for no code"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let login = shared?.login else { return [] }
        var verdicts: [ProbeVerdict] = []
        if c.promise?.bool("login_code_reusable") != true {
            verdicts += await check(c, login, flow: c.probe.declaration.login.name, inputs: nil, label: "")
        }
        for other in c.promise?.logins("logins") ?? [] {
            let label = other.flow.name
            let missing = Set(other.inputs.templates.flatMap(\.expressions).flatMap(\.varsReads).map(\.0)).filter {
                c.environment.vars[$0] == nil
            }.sorted()
            if !missing.isEmpty {
                verdicts.append(
                    c.verdict(
                        label, .skipped,
                        "not checked: its inputs read the run variable\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")), not given"
                    ))
                continue
            }
            let theirs = await c.probe.login(flow: other.flow.name, inputs: other.inputs)
            guard theirs.succeeded else {
                verdicts.append(
                    c.verdict(
                        label, .error,
                        "not checked: could not log in with \(label): it ended `\(theirs.result.outcome)`: \(theirs.result.reason)",
                        infrastructure: theirs.unreachable))
                continue
            }
            verdicts += await check(c, theirs, flow: other.flow.name, inputs: other.inputs, label: label)
            if c.probe.declaration.logout != nil { _ = await c.probe.logout(tokens: theirs.tokens) }
        }
        if verdicts.contains(where: { $0.status != .notApplicable && $0.status != .skipped }) {
            await keepAlive(c, &shared)
        }
        return verdicts
    }

    /// Its new logins are spaced by the login interval, and a short-lived access token of the shared login (10 s
    /// seen) expires meanwhile: the next attacks would find their control failing on a token that merely expired.
    /// Where the session's own token is no longer accepted, it is refreshed, as the app would, or logged in again.
    static func keepAlive(_ c: ProbeCheck, _ shared: inout SharedLogin?) async {
        guard let tokens = shared?.tokens, let token = c.accessToken(tokens),
            await c.protectedControl(token, tokens: tokens) != nil
        else { return }
        if c.probe.session.refresh != nil, let still = await c.stillRefreshes(tokens) {
            shared?.tokens = still
        } else {
            shared?.alive = false
        }
    }

    static func check(
        _ c: ProbeCheck, _ login: ProbeSession.Login, flow: String, inputs: ScenarioInputs?, label: String
    ) async -> [ProbeVerdict] {
        let named = { (what: String) in label.isEmpty ? what : "\(what) (\(label))" }
        guard let (name, code) = login.codeHistory.last else {
            return [c.verdict(named(""), .notApplicable, "the login flow \(flow) asks for no input of type `code`")]
        }
        guard
            let redeeming = login.log.last(where: { entry in
                guard let status = entry.response?.status, (200..<300).contains(status) else { return false }
                return ProbeCheck.carries(entry.request, code)
            })
        else {
            return [c.verdict(named(""), .error, "not checked: no successful request of the login carried the code")]
        }
        // 1. The very request again, at once.
        do throws(TransportError) {
            let again = try await c.environment.adapter.send(redeeming.request)
            let entry = ExchangeLog.Entry(
                flow: redeeming.flow, state: redeeming.state, request: redeeming.request, response: again, failure: nil)
            if (200..<300).contains(again.status) {
                // The probe replays the request exactly, cookies included. A flow that sends the state again carries the
                // cookies its run holds by then — the ones the redeeming answer set (Flask's signed-in session, which
                // makes the server ask for a CSRF token) — so its replay would be refused for another reason and the
                // reproduction would pass where the promise is broken: none is written then.
                let setCookies = redeeming.response?.headers.contains { HeaderName.same($0.0, "Set-Cookie") } ?? false
                return [
                    c.verdict(
                        named("replayed at once"), .broken,
                        "the request that redeemed the code was accepted again (\(again.status))",
                        evidence: [redeeming, entry],
                        reproduction: setCookies ? nil : .codeReplay(flow: redeeming.flow, state: redeeming.state))
                ]
            }
        } catch {
            return [
                c.verdict(
                    named("replayed at once"), .error,
                    "not checked: replaying the code: no answer: \(error.kind.rawValue)", infrastructure: true)
            ]
        }
        // 2. The used code first in a new login; a fresh one after it is the control.
        let fresh = await c.probe.login(flow: flow, inputs: inputs, firstCodes: [name: code])
        let check = named("in a new login")
        guard let offered = fresh.log.first(where: { ProbeCheck.carries($0.request, code) }) else {
            return [
                c.verdict(
                    check, .error,
                    "not checked: the new login never sent the used code (it ended `\(fresh.result.outcome)`: \(fresh.result.reason))",
                    infrastructure: fresh.unreachable)
            ]
        }
        guard let status = offered.response?.status else {
            return [
                c.verdict(
                    check, .error, "not checked: the new login's code request had no answer", infrastructure: true)
            ]
        }
        let askedAgain = fresh.codeHistory.drop { $0.value != code }.contains { $0.name == name && $0.value != code }
        if (200..<300).contains(status), !askedAgain {
            if fresh.succeeded {
                return [
                    c.verdict(
                        check, .broken,
                        "the code used by the previous login was accepted again (\(status)) in a new login, which succeeded with it",
                        evidence: [redeeming, offered])
                ]
            }
            return [
                c.verdict(
                    check, .error,
                    "not checked: the new login's used code was answered \(status), yet the login ended `\(fresh.result.outcome)`: \(fresh.result.reason)"
                )
            ]
        }
        if askedAgain, fresh.succeeded {
            return [
                c.verdict(
                    check, .held,
                    "the used code was refused (\(status)) in a new login; the control: a fresh code in that same login was accepted"
                )
            ]
        }
        if askedAgain {
            return [
                c.verdict(
                    check, .error,
                    "not checked: the control failed: after the used code was refused (\(status)), a fresh code in the same login did not log in either (`\(fresh.result.outcome)`: \(fresh.result.reason))",
                    infrastructure: fresh.unreachable)
            ]
        }
        let control = await c.probe.login(flow: flow, inputs: inputs)
        guard control.succeeded else {
            return [
                c.verdict(
                    check, .error,
                    "not checked: the control failed: after the used code was refused (\(status)), a login with a fresh code ended `\(control.result.outcome)`: \(control.result.reason)",
                    infrastructure: control.unreachable)
            ]
        }
        if c.probe.declaration.logout != nil { _ = await c.probe.logout(tokens: control.tokens) }
        return [
            c.verdict(
                check, .held,
                "the used code was refused (\(status)) in a new login; the control: the next login, with a fresh code, succeeded"
            )
        ]
    }
}

extension ProbeKind {
    package static let oneTimeCodes = ProbeKind(OneTimeCodesAttack.self)
}
