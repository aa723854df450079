import Foundation
import FlowSpecLanguage
import FlowSpecRuntime

/// Probes that send a bad access token to the protected flows: forged, garbage, absent, foreign, expired.
extension ProbeCheck {
    func signature() async -> [ProbeVerdict] {
        await withLogin { login in
            guard let token = token(probe.accessTokenKey, in: login) else {
                return [verdict("", .skipped, "the login stored no access token under `\(probe.accessTokenKey ?? "?")`")]
            }
            guard let forgery = JWTForgery(token) else { return [verdict("", .notApplicable, "the access token is not a JWT")] }
            var verdicts: [ProbeVerdict] = []
            for (check, forged) in [("altered signature", forgery.alteredSignature), ("altered claims under the original signature", forgery.alteredPayload),
                                    ("unsigned token (alg: none)", forgery.unsigned)] {
                environment.redactor.register(forged)
                verdicts.append(refusal(check, await protectedAnswers(token: token, replacement: forged, tokens: login.tokens)))
            }
            return verdicts
        }
    }

    func garbage() async -> [ProbeVerdict] {
        await withLogin { login in
            guard let token = token(probe.accessTokenKey, in: login) else {
                return [verdict("", .skipped, "the login stored no access token under `\(probe.accessTokenKey ?? "?")`")]
            }
            let truncated = String(token.prefix(token.count / 2))
            environment.redactor.register(truncated)
            var verdicts: [ProbeVerdict] = []
            for (check, replacement) in [("empty token", Optional("")), ("truncated token", truncated), ("garbage token", "flowspec-probe-garbage"),
                                         ("no token at all", nil)] as [(String, String?)] {
                verdicts.append(refusal(check, await protectedAnswers(token: token, replacement: replacement, tokens: login.tokens)))
            }
            return verdicts
        }
    }

    func isolation(from others: [NameRef], declarations: [ProbeDeclaration]) async -> [ProbeVerdict] {
        await withLogin { login in
            guard let token = token(probe.accessTokenKey, in: login) else {
                return [verdict("", .skipped, "the login stored no access token under `\(probe.accessTokenKey ?? "?")`")]
            }
            var verdicts: [ProbeVerdict] = []
            for other in others {
                let check = "a token of \(other.name)"
                guard let declaration = declarations.first(where: { $0.session.name == other.name }),
                      let session = environment.specs.sessions[other.name] else {
                    verdicts.append(verdict(check, .skipped, "session `\(other.name)` has no probe file to log in with (give it one with `login:`)"))
                    continue
                }
                let foreign = ProbeSession(declaration: declaration, session: session, environment: environment)
                let theirs = await foreign.login()
                guard theirs.succeeded, let key = foreign.accessTokenKey, let foreignToken = theirs.tokens[key]?.stringValue else {
                    verdicts.append(verdict(check, .skipped, "could not log in to \(other.name): \(theirs.result.outcome): \(theirs.result.reason)",
                                            infrastructure: theirs.result.isInfrastructureFailure))
                    continue
                }
                verdicts.append(refusal(check, await protectedAnswers(token: token, replacement: foreignToken, tokens: login.tokens)))
                if declaration.logout != nil { _ = await foreign.logout(tokens: theirs.tokens) }
            }
            return verdicts
        }
    }

    func expiry(_ promise: ProbeDeclaration.Promise) async -> [ProbeVerdict] {
        await withLogin { login in
            guard let token = token(probe.accessTokenKey, in: login), let expiresAt = JWTForgery.expiry(of: token) else {
                return [verdict("", .notApplicable, "the access token is not a JWT with an `exp` claim")]
            }
            let leeway = environment.seconds(promise.leeway) ?? 0
            let wait = max(0, expiresAt - (await environment.clock.now())) + leeway + 1
            guard wait <= environment.allowWait else {
                return [verdict("", .skipped, Durations.waitNotAllowed("the expiry probe", seconds: wait, limit: environment.allowWait))]
            }
            await environment.clock.sleep(seconds: wait)
            return [refusal("past its exp", await protectedAnswers(token: token, replacement: token, tokens: login.tokens))]
        }
    }
}
