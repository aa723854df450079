/// Supabase Auth state: users by phone, live SMS codes, send times for the rate limit, sessions.
struct SupabaseState: Sendable {
    struct User: Sendable {
        let id: String
        /// Digits only, as GoTrue stores it (no `+`).
        let phone: String
        let createdAt: Double
        var phoneConfirmedAt: Double?
        var lastSignInAt: Double?
        var updatedAt: Double
    }

    /// Keyed by phone digits.
    var users: [String: User] = [:]
    /// Keyed by phone digits.
    var codes = OneTimeCodes<String>()
    /// Phone digits → time of the last send, for `over_sms_send_rate_limit`.
    var lastSend: [String: Double] = [:]
    /// Session id = refresh family id; the access token's `session_id` claim.
    var sessions = RefreshFamilies()

    func user(id: String) -> User? {
        users.values.first { $0.id == id }
    }
}
