import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// How long the tokens live, read at once from what the backend hands out: no waiting.
enum LifetimeAttack: ProbeAttack {
    static let name = "lifetime"
    static let title = "token lifetimes"
    static let options = [
        ProbeOption(
            "access", .duration,
            "The most the access token may live: a duration (30s, 15m, 2h, 7d) or a template over run variables.",
            required: true),
        ProbeOption("refresh", .duration, "Optional: the most the refresh token may live, where the backend shows it."),
    ]
    static let sends =
        "nothing: reads the login's tokens — a JWT's `exp − iat` (or `exp` less the time of the login), else the login answer's `expires_in` or `expiresIn` (`refresh_expires_in` or `refreshExpiresIn` for the refresh token)"
    static let control = "the lifetime was stated by the backend (*n/a* when the token states none)"
    static let heldWhen = "each lifetime is at most the declared maximum"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let login = shared?.login, let promise = c.promise else { return [] }
        let now = await c.environment.clock.now()
        var verdicts: [ProbeVerdict] = []
        for (check, key, token, answerKeys) in [
            ("access token", "access", c.accessToken(login.tokens), ["expires_in", "expiresIn"]),
            ("refresh token", "refresh", c.refreshToken(login.tokens), ["refresh_expires_in", "refreshExpiresIn"]),
        ] {
            guard let template = promise.duration(key) else { continue }
            let most: Double
            switch c.environment.requiredSeconds(template) {
            case .failure(let problem)?: verdicts.append(c.verdict(check, .skipped, problem.message)); continue
            case .success(let seconds)?: most = seconds
            case nil: continue
            }
            guard let token else {
                verdicts.append(
                    key == "access" ? c.noAccessToken()[0].renamed(check) : c.noRefreshToken()[0].renamed(check))
                continue
            }
            guard let (lives, how) = lifetime(token, answerKeys: answerKeys, log: login.log, now: now) else {
                verdicts.append(
                    c.verdict(
                        check, .notApplicable,
                        "the \(check) states no lifetime: it is not a JWT with `exp`, and the login's answer has no `\(answerKeys[0])`"
                    ))
                continue
            }
            let stated = "\(Durations.describe(lives)) (\(how))"
            verdicts.append(
                lives <= most + 1
                    ? c.verdict(
                        check, .held, "the \(check) lives \(stated), at most the declared \(Durations.describe(most))")
                    : c.verdict(
                        check, .broken,
                        "the \(check) lives \(stated), longer than the declared \(Durations.describe(most))",
                        evidence: login.log.filter { entry in
                            entry.response.map { String(decoding: $0.body, as: UTF8.self).contains(token) } ?? false
                        }))
        }
        return verdicts
    }

    /// Seconds the token lives and where that was read.
    static func lifetime(_ token: String, answerKeys: [String], log: [ExchangeLog.Entry], now: Double) -> (
        Double, String
    )? {
        if let claims = JWT.claims(token), let exp = claims["exp"].numberValue {
            if let iat = claims["iat"].numberValue { return (exp - iat, "its `exp − iat`") }
            return (exp - now, "its `exp`, from the time of the login")
        }
        for entry in log.reversed() {
            guard let body = entry.response?.body, String(decoding: body, as: UTF8.self).contains(token),
                let answer = JSONValue.parse(body)
            else { continue }
            for key in answerKeys {
                if let seconds = find(key, in: answer) { return (seconds, "the login answer's `\(key)`") }
            }
        }
        return nil
    }

    /// The first number under `key` anywhere in `value` (`{"data": {"expires_in": 900}}`).
    static func find(_ key: String, in value: JSONValue) -> Double? {
        switch value {
        case .object(let fields):
            if let n = fields[key]?.numberValue { return n }
            return fields.values.lazy.compactMap { find(key, in: $0) }.first
        case .array(let items): return items.lazy.compactMap { find(key, in: $0) }.first
        default: return nil
        }
    }
}

extension ProbeVerdict {
    func renamed(_ check: String) -> ProbeVerdict {
        var copy = self
        copy.check = check
        return copy
    }
}

extension ProbeKind {
    package static let lifetime = ProbeKind(LifetimeAttack.self)
}
