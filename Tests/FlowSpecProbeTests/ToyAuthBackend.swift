import Foundation

@testable import FlowSpecLanguage
@testable import FlowSpecProbe
@testable import FlowSpecRuntime

/// A small token backend in memory, with a knob for each promise the probes check, so every probe kind can be
/// seen to hold on a faithful backend, break on a faulty one, and report an ERROR where a knob makes the probe's
/// control (the legitimate request) fail too — without a network.
///
/// Its accounts log in with a password and a code sent by email (`/login` + `/verify`, or the pre-auth variant
/// `/login/start` + `/login/finish`), or with the password alone (`/token`). Each login sends a new code, written to
/// the account's file in `inbox` — what the probe file's `code: { command: "cat …" }` reads, as a mail catcher's API
/// would be read — so a code used in one login is never the right code of the next.
actor ToyAuthBackend: HTTPAdapter {
    struct Knobs: Sendable {
        // Refresh tokens
        var rotate = true
        var detectReuse = true
        var revokeFamily = true
        var parentOfActiveGrace = false
        /// Concurrent refreshes of one token all succeed with different tokens (a check-then-act race).
        var raceOnRefresh = false
        /// The refresh refuses every token, the session's fresh one included: the refresh attacks' control fails.
        var refreshRefusesAll = false
        /// A refresh token that is not of the toy's shape (truncated, garbage) is answered 500 instead of 401.
        var crashOnMalformedRefresh = false
        /// The login answers no refresh token.
        var issueRefreshTokens = true
        /// A refresh token is looked up by its selector (`refresh-FAMILY-SEQUENCE`) and reuse is judged before the rest
        /// is compared: a made-up token with a rotated-out token's selector revokes the family.
        var reuseBySelector = false

        // Access tokens
        var verifySignature = true
        var acceptUnsigned = false
        var acceptExpired = false
        var accessLifetime = 3600.0
        var refreshLifetime = 86_400.0
        /// The login answer carries `expires_in` and `refresh_expires_in`.
        var statesLifetime = true
        /// The access JWT carries `iat`.
        var iat = true
        var jwt = true
        /// How /me refuses a bad token.
        var refusal = 401
        /// /me refuses every token, the session's own included: the token attacks' control fails.
        var meRefusesAll = false

        // Logout
        var logoutRevokes = true
        /// Logout ends the refresh family but the access token still opens /me until it expires (a stateless JWT).
        var logoutKeepsAccess = false
        /// How a logout that worked is answered (Supabase answers 204; some servers 401).
        var logoutStatus = 200

        // Codes and passwords
        var codesSingleUse = true
        /// `/login` answers the tokens at once after the password, as for an account without two-factor enrolled.
        var secondFactorOptional = false
        /// Every code is refused, the right one too (a mailer sending the wrong code).
        var codesRefused = false
        /// After this many wrong codes in one login, that login's code is burnt: the right one is refused too.
        var codeAttempts = 5
        var noAttemptLimit = false
        /// After this many wrong codes in one login, every further code of that login is answered 429.
        var codeRateLimit: Int?
        /// Any code logs in: the backend never compares it.
        var anyCode = false
        /// After this many wrong passwords in a row, the account is locked.
        var passwordAttempts = 5
        var noLockout = false
        /// Accounts locked before the run (by an earlier run's guesses).
        var locked: Set<String> = []
        /// An unknown account is answered 404 "no such account", a wrong password 401: the answer tells which.
        var revealsUnknownAccounts = false
        /// The refusal names the email it was sent (which says nothing about the account).
        var refusalNamesEmail = false

        // Roles and objects
        /// A customer's token opens the staff endpoint /me.
        var customerOpensStaff = false
        /// /customer/me refuses every token: a customer token proves nothing on the staff endpoints.
        var customerMeRefusesAll = false
        /// GET /notes/{id} answers any logged-in user, not only the note's owner (broken object-level authorization).
        var anyOwner = false
        /// GET /notes/{id} answers 404 even to the owner.
        var ownerCannotRead = false
        /// How GET /notes/{id} refuses anyone but the owner (403 tells them the note exists).
        var othersNoteStatus = 404
        /// A deactivated account's tokens still open /me until they expire (simplejwt without `CHECK_USER_IS_ACTIVE`).
        var deactivationKeepsTokens = false

        // Code sends
        /// A second send to one destination within the run is accepted, not answered 429.
        var noSendLimit = false
        /// Every send is refused.
        var sendsRefused = false
    }

    enum Role: Sendable { case staff, customer }
    struct Account: Sendable {
        let password: String
        let role: Role
    }

    static let alice = "alice@toy.test"
    /// The second staff account, for cross-user checks.
    static let bob = "bob@toy.test"
    /// A throwaway staff account for the attempt limits, so guessing never locks the account the other probes use.
    static let spare = "spare@toy.test"
    /// A customer, whose token the staff endpoints must refuse.
    static let carol = "carol@toy.test"
    /// A throwaway staff account the deactivation probe deactivates.
    static let leaver = "leaver@toy.test"
    static let accounts: [String: Account] = [
        alice: Account(password: "alice-password-1", role: .staff),
        bob: Account(password: "bob-password-2", role: .staff),
        spare: Account(password: "spare-password-3", role: .staff),
        carol: Account(password: "carol-password-4", role: .customer),
        leaver: Account(password: "leaver-password-5", role: .staff),
    ]

    let knobs: Knobs
    /// One file per account, holding the last code sent to it.
    nonisolated let inbox: URL
    /// An empty file per deactivated account, made and removed by shell commands as an admin's database update would.
    nonisolated let deactivated: URL

    var sequence = 0
    /// opaque access token → when it was issued (a JWT carries its own `exp`)
    var opaqueIssued: [String: Double] = [:]
    /// access/refresh family → the account it was issued to
    var families: [Int: String] = [:]
    /// refresh token → (family, revoked, parent)
    var refreshTokens: [String: (family: Int, revoked: Bool, parent: String?)] = [:]
    /// Families whose refresh tokens are all refused (logout, reuse detected).
    var revokedFamilies: Set<Int> = []
    /// Families whose access tokens are refused before they expire (logout, reuse detected).
    var endedAccess: Set<Int> = []
    var codesSent = 0
    /// code → (account, used)
    var codes: [String: (email: String, used: Bool)] = [:]
    /// A login waiting for its code, by pre-auth id.
    struct PendingLogin {
        let email: String
        let code: String
        var wrong = 0
        var burnt = false
        var consumed = false
    }
    var pending: [String: PendingLogin] = [:]
    /// The account's latest login, which `/verify` (no pre-auth id) redeems against.
    var latestLogin: [String: String] = [:]
    var wrongPasswords: [String: Int] = [:]
    var lockedAccounts: Set<String>
    /// note id → its owner
    var notes: [String: String] = [:]
    /// destination → sends
    var sends: [String: Int] = [:]
    private(set) var refreshRequests = 0
    /// Every request's path and the status it was answered, in order.
    private(set) var answered: [(path: String, status: Int)] = []

    init(_ knobs: Knobs = Knobs()) {
        self.knobs = knobs
        lockedAccounts = knobs.locked
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("toy-backend-\(UUID().uuidString)")
        inbox = root.appendingPathComponent("inbox")
        deactivated = root.appendingPathComponent("deactivated")
        for directory in [inbox, deactivated] {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(at: inbox.deletingLastPathComponent()) }

    nonisolated func isDeactivated(_ email: String) -> Bool {
        FileManager.default.fileExists(atPath: deactivated.appendingPathComponent(email).path)
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = await route(request)
        answered.append((request.path, response.status))
        return response
    }

    func route(_ request: HTTPRequest) async -> HTTPResponse {
        switch (request.method, request.path) {
        case ("POST", "/login"): return login(request, preAuth: false)
        case ("POST", "/verify"): return verify(request)
        case ("POST", "/login/start"): return login(request, preAuth: true)
        case ("POST", "/login/finish"): return finish(request)
        case ("POST", "/token"): return token(request)
        case ("POST", "/refresh"):
            refreshRequests += 1
            return await refresh(request)
        case ("GET", "/me"): return me(request)
        case ("GET", "/customer/me"): return customerMe(request)
        case ("POST", "/logout"): return logout(request)
        case ("POST", "/notes"): return createNote(request)
        case ("GET", let path) where path.hasPrefix("/notes/"):
            return readNote(request, id: String(path.dropFirst("/notes/".count)))
        case ("POST", "/send-code"): return sendCode(request)
        default: return reply(404, ["error": "not found"])
        }
    }

    func reply(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")], body: status == 204 ? Data() : data)
    }

    func field(_ request: HTTPRequest, _ name: String) -> String? {
        if case .string(let value)? = request.json?[name] { return value }
        return nil
    }
}
