/// GoTrue's sessions and (v1) refresh tokens, modelled on `internal/models/refresh_token.go`, `sessions.go` and
/// `internal/tokens/service.go` (`RefreshTokenGrant`) of github.com/supabase/auth:
///
/// - a session owns a chain of refresh tokens; a refresh revokes the presented token and issues a child;
/// - the **parent of the active token** (the one just rotated out) answers with the active token itself — the
///   client failed to store the last answer — nothing is issued or revoked;
/// - any **other revoked token** is swapped like a live one while the reuse interval since it was revoked
///   lasts, and after it (`now > revokedAt + interval`) answers `refresh_token_already_used` and revokes every
///   token of the session that is still live ("the family"). The session itself stays: its access tokens
///   keep working until they expire;
/// - logout deletes sessions and their tokens (they become unknown).
struct SupabaseRefreshTokens: Sendable {
    struct Session: Sendable {
        let id: String
        let userID: String
    }

    struct Token: Sendable {
        let value: String
        let sessionID: String
        let parent: String?
        /// Issue order within the sandbox: GoTrue takes the active token as the live one with the highest id.
        let sequence: Int
        var revoked: Bool
        /// GoTrue's `updated_at`: the issue time, then the time it was revoked.
        var updatedAt: Double
    }

    enum Outcome: Sendable {
        /// A new token, or the active one when the parent was presented.
        case issued(Session, token: String)
        case notFound
        case alreadyUsed
    }

    /// The departures from GoTrue that `SandboxBreak`s ask for.
    struct Policy: Sendable {
        var rotate = true
        /// false: an old token is always swapped, whatever the interval (`supabase-no-reuse-detection`).
        var detectReuse = true
        /// false: reuse is refused but the session's live tokens stay live (`supabase-family-survives-reuse`).
        var revokeFamilyOnReuse = true
        /// false: the parent of the active token is treated like any older token (`supabase-parent-reuse-refused`).
        var parentReturnsActive = true
    }

    private(set) var sessions: [String: Session] = [:]
    private var tokens: [String: Token] = [:]
    private var nextSequence = 0

    /// A session with its first token (sign-in).
    mutating func start(userID: String, now: Double) -> (Session, token: String) {
        let session = Session(id: Secrets.uuid(), userID: userID)
        sessions[session.id] = session
        return (session, issue(in: session.id, parent: nil, now: now))
    }

    mutating func refresh(_ value: String, now: Double, reuseInterval: Double, policy: Policy = Policy()) -> Outcome {
        guard var token = tokens[value], let session = sessions[token.sessionID] else { return .notFound }
        if token.revoked {
            let active = activeToken(of: session.id)
            if policy.parentReturnsActive, let active, active.parent == token.value {
                return .issued(session, token: active.value)
            }
            if policy.detectReuse, now > token.updatedAt + reuseInterval {
                if policy.revokeFamilyOnReuse { revokeLive(of: session.id, now: now) }
                return .alreadyUsed
            }
        }
        guard policy.rotate else { return .issued(session, token: token.value) }
        // GrantRefreshTokenSwap: revoked (again) now — `updated_at` moves, so a reused token's interval restarts.
        token.revoked = true
        token.updatedAt = now
        tokens[value] = token
        return .issued(session, token: issue(in: session.id, parent: value, now: now))
    }

    /// Whether `value` is a live (unrevoked) token of an existing session: the read-only check of
    /// `supabase-non-atomic-rotation`.
    func isActive(_ value: String) -> Bool {
        guard let token = tokens[value], sessions[token.sessionID] != nil else { return false }
        return !token.revoked
    }

    func isLive(_ sessionID: String) -> Bool {
        sessions[sessionID] != nil
    }

    func sessionIDs(userID: String) -> [String] {
        sessions.values.filter { $0.userID == userID }.map(\.id)
    }

    /// Deletes the session and its tokens (GoTrue's logout).
    mutating func delete(_ sessionID: String) {
        sessions[sessionID] = nil
        tokens = tokens.filter { $0.value.sessionID != sessionID }
    }

    private func activeToken(of sessionID: String) -> Token? {
        tokens.values.filter { $0.sessionID == sessionID && !$0.revoked }.max { $0.sequence < $1.sequence }
    }

    private mutating func revokeLive(of sessionID: String, now: Double) {
        for (value, token) in tokens where token.sessionID == sessionID && !token.revoked {
            tokens[value]?.revoked = true
            tokens[value]?.updatedAt = now
        }
    }

    private mutating func issue(in sessionID: String, parent: String?, now: Double) -> String {
        let value = Self.newTokenValue()
        nextSequence += 1
        tokens[value] = Token(
            value: value, sessionID: sessionID, parent: parent, sequence: nextSequence,
            revoked: false, updatedAt: now)
        return value
    }

    /// GoTrue's v1 refresh token: 12 characters of lowercase base32 (`crypto.SecureAlphanumeric(12)`).
    static func newTokenValue() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var generator = SystemRandomNumberGenerator()
        return String((0..<12).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// GoTrue's `RefreshTokenGrantParams.Validate` for the tokens the sandbox issues: 12 characters matching
    /// `^[a-z0-9]{12}$`. (A longer token would be parsed as a v2 token, which the sandbox never issues.)
    static func isWellFormed(_ value: String) -> Bool {
        value.count == 12 && value.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
    }
}
