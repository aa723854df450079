import FlowSpecLanguage
import FlowSpecScenarios

/// After the logout flow, the session's access token opens nothing. Stateless JWTs that outlive logout are the most
/// common real weakness, and a legitimate design where the documents say so: it is BROKEN only where declared.
enum AccessAfterLogoutAttack: ProbeAttack {
    static let name = "access_after_logout"
    static let title = "logout ends the access token"
    static let needs: Set<ProbeNeed> = [.logoutFlow]
    static let stage = ProbeStage.own
    static let sends =
        "on a login of its own: the logout flow, then the session's access token from before logout to every protected flow"
    static let control =
        "the same flows accept that token just before the logout, and the logout request is answered as declared (`logout.answers`, default 2xx)"
    static let heldWhen = "every protected flow refuses it"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        await c.withLogin { login in
            await c.withAcceptedAccessToken(login.tokens) { token in
                let logout = await c.logOut(login.tokens)
                if let failed = logout.failed { return [failed] }
                var found = c.refusal(
                    "", await c.protectedAnswers(token: token, replacement: token, tokens: login.tokens),
                    controlWhen: "before the logout, "
                ) { flow, state in
                    .accessAfterLogout(flow: flow, state: state)
                }
                if found.status == .broken {
                    found.detail =
                        "after logout, " + found.detail
                        + " — the access token outlives the logout, which this probe file declares it must not"
                    found.evidence =
                        (logout.log.map { ExchangeRecord($0, redactor: c.environment.redactor) }) + found.evidence
                } else if found.status == .held {
                    found.detail = "after logout, " + found.detail
                }
                return [found]
            }
        }
    }
}

extension ProbeKind {
    package static let accessAfterLogout = ProbeKind(AccessAfterLogoutAttack.self)
}
