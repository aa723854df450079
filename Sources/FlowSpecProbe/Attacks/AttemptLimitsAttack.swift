import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios

/// Guessing is bounded: after the declared number of wrong codes (or passwords), the right one is refused, or the
/// backend locks or rate-limits. Each guess is a login of its own — a throwaway account's where declared — so the
/// account the other probes use is not locked for the rest of the run.
enum AttemptLimitsAttack: ProbeAttack {
    static let name = "attempt_limits"
    static let title = "attempt limits"
    static let stage = ProbeStage.own
    static let options = [
        ProbeOption(
            "codes", .count(1...50),
            "After this many wrong codes (sent in place of a login's code), the right code is refused, or a 429 came."),
        ProbeOption(
            "passwords", .count(1...50),
            "After this many wrong passwords (sent in place of the `password_input`), the right one is refused, or a 429 came."
        ),
        ProbeOption("password_input", .key, "The login input that is the password (default `password`)."),
        ProbeOption(
            "inputs", .inputs,
            "Login inputs of a throwaway account for these attempts, so the real account is never locked (default: the probe file's login inputs)."
        ),
    ]
    static let sends =
        "on a new login, the declared number of wrong codes (each differing from the right one in every character), sent in place of the code in the request that carries it, then the right code; likewise for passwords"
    static let control = "a login with the same inputs and no wrong guess succeeds just before"
    static let heldWhen = "the right value is refused after the wrong ones, or the backend answered 429 on the way"

    /// Guessing passwords locks the account it guesses at: only a throwaway account's.
    static func check(_ promise: ProbeDeclaration.Promise, _ d: inout Diagnostics) {
        if !promise.written.contains("codes"), !promise.written.contains("passwords") {
            d.error(
                promise.location, "`attempt_limits` needs `codes:`, `passwords:` or both",
                hint: "e.g. `codes: 5`: after 5 wrong codes the right one must be refused")
        }
        if promise.written.contains("passwords"), !promise.written.contains("inputs") {
            d.error(
                promise.location, "`attempt_limits` with `passwords:` needs `inputs:` of a throwaway account",
                hint:
                    "wrong passwords may lock the account they are sent for; give the login inputs of an account kept for this, e.g. `inputs: { email: \"${vars.throwaway_email}\", password: \"${vars.throwaway_password}\" }`"
            )
        }
    }

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let promise = c.promise else { return [] }
        var verdicts: [ProbeVerdict] = []
        for (key, check, input) in [
            ("codes", "wrong codes", nil),
            ("passwords", "wrong passwords", promise.names("password_input").first?.name ?? "password"),
        ] as [(String, String, String?)] {
            switch c.environment.requiredSeconds(promise.duration(key)) {
            case nil: continue
            case .failure(let problem)?: verdicts.append(c.verdict(check, .skipped, problem.message))
            case .success(let n)? where n >= 1 && n <= 50 && n == n.rounded():
                verdicts.append(await guess(c, check, count: Int(n), input: input))
            case .success(let n)?:
                verdicts.append(
                    c.verdict(check, .error, "not checked: `\(key)` is \(n); it must be a whole number from 1 to 50"))
            }
        }
        return verdicts
    }

    /// `input`: the input to guess at by name; nil: the login's code input.
    static func guess(_ c: ProbeCheck, _ check: String, count: Int, input: String?) async -> ProbeVerdict {
        let inputs = c.promise?.inputs("inputs")
        let control = await c.probe.login(inputs: inputs)
        guard control.succeeded else {
            return c.verdict(
                check, .error,
                "not checked: the control failed: a login without wrong guesses ended `\(control.result.outcome)`: \(control.result.reason)",
                infrastructure: control.unreachable)
        }
        if c.probe.declaration.logout != nil { _ = await c.probe.logout(tokens: control.tokens) }
        if input == nil, control.codeHistory.isEmpty {
            return c.verdict(check, .notApplicable, "the login flow asks for no input of type `code`")
        }
        let guessing = GuessingAdapter(c.environment.adapter, count: count) { right, count in
            input == nil
                ? GuessingAdapter.wrongCodes(like: right, count: count)
                : (1...count).map { "FlowSpec-wrong-password-\($0)" }
        }
        let attempt = await c.probe.login(
            inputs: inputs, adapter: guessing,
            observe: { decl, value in
                if input.map({ decl.name == $0 }) ?? (decl.kind == .code) { guessing.aim(at: value) }
            })
        guard let right = guessing.right else {
            return c.verdict(
                check, .error,
                "not checked: the login never sent \(input.map { "the input `\($0)`" } ?? "its code") (it ended `\(attempt.result.outcome)`: \(attempt.result.reason))",
                infrastructure: attempt.unreachable)
        }
        if attempt.succeeded, c.probe.declaration.logout != nil { _ = await c.probe.logout(tokens: attempt.tokens) }
        let guesses = guessing.guesses
        let evidence = guesses + [right]
        if let failure = (guesses + [right]).first(where: { $0.failure != nil })?.failure {
            return c.verdict(
                check, .error, "not checked: a guess had no answer: \(failure.kind.rawValue)", infrastructure: true)
        }
        let statuses = guesses.compactMap { $0.response?.status }
        if let limited = statuses.firstIndex(of: 429) {
            return c.verdict(
                check, .held,
                "rate-limited (429) after \(limited) wrong \(input == nil ? "codes" : "passwords"); the control: a login without guesses succeeded"
            )
        }
        if let accepted = statuses.firstIndex(where: { (200..<300).contains($0) }) {
            return c.verdict(
                check, .broken, "wrong guess \(accepted + 1) was accepted (\(statuses[accepted]))", evidence: evidence)
        }
        if let crashed = statuses.first(where: { $0 >= 500 }) {
            return c.verdict(
                check, .broken, "a wrong guess was answered \(crashed), a server error, instead of refusing",
                evidence: evidence)
        }
        let status = right.response?.status ?? 0
        let after = "after \(guesses.count) wrong \(input == nil ? "codes" : "passwords")"
        if status == 429 || !(200..<300).contains(status) {
            return c.verdict(
                check, status >= 500 ? .broken : .held,
                "\(after) the right one was refused (\(status)); the control: a login without guesses succeeded",
                evidence: status >= 500 ? evidence : [])
        }
        return c.verdict(
            check, .broken, "\(after) the right one was still accepted (\(status)): nothing limits guessing",
            evidence: evidence)
    }
}

extension ProbeKind {
    package static let attemptLimits = ProbeKind(AttemptLimitsAttack.self)
}
