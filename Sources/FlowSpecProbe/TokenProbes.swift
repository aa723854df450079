import Foundation
import FlowSpecLanguage
import FlowSpecRuntime

/// Probes that send a bad access token to the protected flows: forged, garbage, absent, foreign, expired.
extension ProbeCheck {
    func signature(_ tokens: [String: JSONValue]) async -> [ProbeVerdict] {
        guard let token = accessToken(tokens) else { return noAccessToken() }
        guard JWT.forge(token, .unsigned) != nil else { return [verdict("", .notApplicable, "the access token is not a JWT")] }
        var verdicts: [ProbeVerdict] = []
        for (check, way) in [("altered signature", JWTForgery.alteredSignature), ("altered claims under the original signature", .alteredClaims),
                             ("unsigned token (alg: none)", .unsigned)] {
            guard let forged = JWT.forge(token, way) else { continue }
            environment.redactor.register(forged)
            verdicts.append(refusal(check, await protectedAnswers(token: token, replacement: forged, tokens: tokens)) { flow, state in
                .tokenSwap(flow: flow, state: state, token: .forged(way))
            })
        }
        return verdicts
    }

    func garbage(_ tokens: [String: JSONValue]) async -> [ProbeVerdict] {
        guard let token = accessToken(tokens) else { return noAccessToken() }
        let truncated = String(token.prefix(token.count / 2))
        environment.redactor.register(truncated)
        var verdicts: [ProbeVerdict] = []
        for (check, replacement) in [("empty token", Optional("")), ("truncated token", truncated), ("garbage token", "flowspec-probe-garbage"),
                                     ("no token at all", nil)] as [(String, String?)] {
            let sent: Reproduction.Token = check == "truncated token" ? .truncated : replacement.map(Reproduction.Token.literal) ?? .absent
            verdicts.append(refusal(check, await protectedAnswers(token: token, replacement: replacement, tokens: tokens)) { flow, state in
                .tokenSwap(flow: flow, state: state, token: sent)
            })
        }
        return verdicts
    }

    func isolation(_ tokens: [String: JSONValue], from others: [NameRef], runner: ProbeRunner) async -> [ProbeVerdict] {
        guard let token = accessToken(tokens) else { return noAccessToken() }
        var verdicts: [ProbeVerdict] = []
        for other in others {
            let check = "a token of \(other.name)"
            guard let foreign = runner.session(other.name) else {
                verdicts.append(verdict(check, .error, "not checked: session `\(other.name)` has no probe file to log in with (give it one with `login:`)"))
                continue
            }
            let theirs = await foreign.login()
            guard theirs.succeeded, let key = foreign.accessTokenKey, let foreignToken = theirs.tokens[key]?.stringValue else {
                verdicts.append(verdict(check, .error, "not checked: could not log in to \(other.name): \(theirs.result.outcome): \(theirs.result.reason)",
                                        infrastructure: theirs.unreachable))
                continue
            }
            let theirLogin = foreign.declaration
            verdicts.append(refusal(check, await protectedAnswers(token: token, replacement: foreignToken, tokens: tokens)) { flow, state in
                .foreignToken(flow: flow, state: state, session: other.name, login: theirLogin.login.name, accessKey: key, inputs: theirLogin.loginInputs)
            })
            if foreign.declaration.logout != nil { _ = await foreign.logout(tokens: theirs.tokens) }
        }
        return verdicts
    }

    func expiry(_ tokens: [String: JSONValue], _ promise: ProbeDeclaration.Promise) async -> [ProbeVerdict] {
        guard let token = accessToken(tokens), let expiresAt = JWT.expiry(of: token) else {
            return [verdict("", .notApplicable, "the access token is not a JWT with an `exp` claim")]
        }
        var leeway = 0.0
        switch environment.requiredSeconds(promise.leeway) {
        case .failure(let problem)?: return [verdict("", .skipped, problem.message)]
        case .success(let seconds)?: leeway = seconds
        case nil: break
        }
        let wait = max(0, expiresAt - (await environment.clock.now())) + leeway + 1
        guard wait <= environment.allowWait else {
            return [verdict("", .skipped, Durations.waitNotAllowed("the expiry probe", seconds: wait, limit: environment.allowWait))]
        }
        environment.onWait("\(sessionName): waiting \(Durations.describe(wait)) for the access token to expire")
        await environment.clock.sleep(seconds: wait)
        return [refusal("past its exp", await protectedAnswers(token: token, replacement: token, tokens: tokens)) { flow, state in
            .expiry(flow: flow, state: state, seconds: wait)
        }]
    }
}
