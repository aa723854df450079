/// Supabase Auth state: users by phone (with their pending SMS code and last send, as GoTrue keeps them on the
/// user row), and sessions with their refresh tokens.
struct SupabaseState: Sendable {
    struct User: Sendable {
        let id: String
        /// Digits only, as GoTrue stores it (no `+`).
        let phone: String
        let createdAt: Double
        var phoneConfirmedAt: Double?
        var lastSignInAt: Double?
        var updatedAt: Double
        /// When the last code was sent: the send rate limit and the code's lifetime count from here
        /// (GoTrue's `confirmation_sent_at`).
        var confirmationSentAt: Double?
        /// The code sent last; cleared when a code is verified (GoTrue's `confirmation_token`). Test phones store
        /// their fixed code here too, as GoTrue does.
        var confirmationCode: String?
        /// The one `phone` identity GoTrue creates at sign-up.
        let identityID: String
    }

    /// Keyed by phone digits.
    var users: [String: User] = [:]
    var sessions = SupabaseRefreshTokens()

    func user(id: String) -> User? {
        users.values.first { $0.id == id }
    }
}
