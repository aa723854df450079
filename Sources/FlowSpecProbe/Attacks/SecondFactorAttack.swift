import FlowSpecLanguage
import FlowSpecRuntime

/// A password alone never signs in where a second factor is promised: each declared login asks for a code before
/// any token is handed out. Catches two-factor made optional and side doors that skip it (a password sign-in
/// endpoint that answers tokens at once).
enum SecondFactorAttack: ProbeAttack {
    static let name = "second_factor"
    static let title = "the second factor is required"
    static let stage = ProbeStage.own
    static let options = [
        ProbeOption(
            "logins", .logins,
            "The login flows that start with a password (each with an account's inputs, its code input given as usual): every way in that must ask for a second factor.",
            required: true)
    ]
    static let sends = "each declared login, as written, with its inputs"
    static let control = "the login succeeds once the code is given"
    static let heldWhen =
        "each login asks for a code (an input of `type: code`) before any answer carries the token it ends with"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        var verdicts: [ProbeVerdict] = []
        for login in c.promise?.logins("logins") ?? [] {
            let check = login.flow.name
            let attempt = await c.probe.login(flow: login.flow.name, inputs: login.inputs)
            let token = c.accessToken(attempt.tokens)
            // Where the token first came back, and where the first code went out.
            let codeSent = attempt.codeHistory.first.flatMap { code in
                attempt.log.firstIndex { ProbeCheck.carries($0.request, code.value) }
            }
            // The token it ended with; or, where the flow did not expect one so early (it ended unhandled), any token
            // an answer before the code carried: a JWT, or a value under a token's usual name.
            let handedOut =
                token.flatMap { token in
                    attempt.log.firstIndex {
                        $0.response.map { String(decoding: $0.body, as: UTF8.self).contains(token) } ?? false
                    }
                }
                ?? attempt.log.prefix(codeSent ?? attempt.log.count).firstIndex { entry in
                    entry.response.flatMap { JSONValue.parse($0.body) }.map(Self.carriesToken) ?? false
                }
            if let handedOut, codeSent.map({ handedOut < $0 }) ?? true {
                let how =
                    codeSent == nil
                    ? "signed in without ever being asked for a code" : "the token came back before the code was sent"
                verdicts.append(
                    c.verdict(
                        check, .broken,
                        "\(how): \(attempt.log[handedOut].request.method) \(attempt.log[handedOut].request.path) answered it",
                        evidence: Array(attempt.log.prefix(handedOut + 1))))
            } else if attempt.codeHistory.isEmpty {
                verdicts.append(
                    c.verdict(
                        check, .error,
                        "not checked: the login ended `\(attempt.result.outcome)` without asking for a code and without a token: \(attempt.result.reason)",
                        infrastructure: attempt.unreachable))
            } else if attempt.succeeded, token != nil {
                verdicts.append(
                    c.verdict(
                        check, .held,
                        "a code was asked for before any token; the control: with the code, the login succeeded"))
                if c.probe.declaration.logout != nil { _ = await c.probe.logout(tokens: attempt.tokens) }
            } else {
                verdicts.append(
                    c.verdict(
                        check, .error,
                        "not checked: the control failed: after the code the login ended `\(attempt.result.outcome)`: \(attempt.result.reason)",
                        infrastructure: attempt.unreachable))
            }
        }
        return verdicts
    }
}

extension SecondFactorAttack {
    static let tokenNames: Set<String> = [
        "token", "access_token", "accessToken", "access", "id_token", "jwt", "auth_token", "authentication_token",
    ]

    static func carriesToken(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): return JWT.claims(s) != nil
        case .array(let items): return items.contains(where: carriesToken)
        case .object(let fields):
            return fields.contains { key, value in
                if tokenNames.contains(key), case .string(let s) = value, s.count >= 16 { return true }
                return carriesToken(value)
            }
        default: return false
        }
    }
}

extension ProbeKind {
    package static let secondFactor = ProbeKind(SecondFactorAttack.self)
}
