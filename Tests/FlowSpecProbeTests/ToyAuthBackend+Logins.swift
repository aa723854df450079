import Foundation

@testable import FlowSpecRuntime

/// The toy's logins: the password check with its lockout, the codes it sends (one per login, good once), their
/// wrong-attempt limit, and the code-send endpoint with its rate limit.
extension ToyAuthBackend {
    /// `/login` (then `/verify`) or `/login/start` (then `/login/finish` with the pre-auth id it answers).
    func login(_ request: HTTPRequest, preAuth: Bool) -> HTTPResponse {
        guard let email = field(request, "email") else { return reply(400, ["error": "email required"]) }
        if let refused = checkPassword(email, field(request, "password")) { return refused }
        if knobs.secondFactorOptional, !preAuth { return issue(for: email) }
        let id = "pa-\(UUID().uuidString)"
        let code = newCode(for: email)
        pending[id] = PendingLogin(email: email, code: code)
        latestLogin[email] = id
        return reply(200, preAuth ? ["pre_auth": id] : ["sent": true])
    }

    /// `/token`: the password alone.
    func token(_ request: HTTPRequest) -> HTTPResponse {
        guard let email = field(request, "email") else { return reply(400, ["error": "email required"]) }
        if let refused = checkPassword(email, field(request, "password")) { return refused }
        return issue(for: email)
    }

    /// nil when the password is right and the account open; otherwise the refusal. Wrong passwords in a row lock
    /// the account (unless `noLockout`): from then on even the right one is refused.
    func checkPassword(_ email: String, _ password: String?) -> HTTPResponse? {
        let refused = knobs.refusalNamesEmail ? "invalid credentials for \(email)" : "invalid credentials"
        guard let account = Self.accounts[email] else {
            return knobs.revealsUnknownAccounts
                ? reply(404, ["error": "no such account"]) : reply(401, ["error": refused])
        }
        if lockedAccounts.contains(email) { return reply(423, ["error": "account locked"]) }
        if isDeactivated(email) { return reply(403, ["error": "account deactivated"]) }
        guard password == account.password else {
            wrongPasswords[email, default: 0] += 1
            if !knobs.noLockout, wrongPasswords[email, default: 0] >= knobs.passwordAttempts {
                lockedAccounts.insert(email)
            }
            return reply(401, ["error": refused])
        }
        wrongPasswords[email] = 0
        return nil
    }

    /// A new code for every login: "90" and a counter, so no code is another with every digit shifted the same
    /// way (the attempt-limits probe guesses such codes, and must never hit another login's good code).
    func newCode(for email: String) -> String {
        codesSent += 1
        let code = String(format: "90%04d", codesSent)
        codes[code] = (email, false)
        try? Data(code.utf8).write(to: inbox.appendingPathComponent(email))
        return code
    }

    /// `/verify`: the code, redeemed against the account's latest login. The request carries nothing of that login,
    /// so replaying it is judged by the code alone.
    func verify(_ request: HTTPRequest) -> HTTPResponse {
        guard let email = field(request, "email"), let id = latestLogin[email] else {
            return reply(401, ["error": "no login in progress"])
        }
        return redeem(field(request, "code"), login: id)
    }

    /// `/login/finish`: the pre-auth id is consumed by the login it belongs to, so the very request replayed is
    /// answered 410 whatever the code — which says nothing about the code.
    func finish(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = field(request, "pre_auth"), let login = pending[id], !login.consumed else {
            return reply(410, ["error": "this login is over: start again"])
        }
        return redeem(field(request, "code"), login: id)
    }

    /// Any code sent to the login's account that is not used yet (or any at all, without `codesSingleUse`) logs in,
    /// unless wrong codes burnt this login's code.
    func redeem(_ code: String?, login id: String) -> HTTPResponse {
        guard var login = pending[id] else { return reply(401, ["error": "no login in progress"]) }
        if knobs.codesRefused { return reply(401, ["error": "wrong code"]) }
        if let limit = knobs.codeRateLimit, login.wrong >= limit {
            return reply(429, ["error": "too many attempts: wait a minute"])
        }
        if !login.burnt, let code,
            knobs.anyCode || codes[code].map({ $0.email == login.email && (!$0.used || !knobs.codesSingleUse) }) == true
        {
            codes[code]?.used = true
            pending[id]?.consumed = true
            return issue(for: login.email)
        }
        login.wrong += 1
        if !knobs.noAttemptLimit, login.wrong >= knobs.codeAttempts { login.burnt = true }
        pending[id] = login
        return reply(401, ["error": login.burnt ? "too many wrong codes: start again" : "wrong code"])
    }

    /// `/send-code`: one code to one destination per run; a second is answered 429.
    func sendCode(_ request: HTTPRequest) -> HTTPResponse {
        guard let email = field(request, "email") else { return reply(400, ["error": "email required"]) }
        if knobs.sendsRefused { return reply(403, ["error": "sending is disabled"]) }
        sends[email, default: 0] += 1
        if !knobs.noSendLimit, sends[email, default: 0] > 1 {
            return reply(429, ["error": "too many codes: wait a minute"])
        }
        return reply(200, ["sent": true])
    }
}
