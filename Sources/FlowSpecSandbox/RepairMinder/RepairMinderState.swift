/// Repair Minder staff state: who is mid-2FA, live codes, refresh families, runtime account changes.
struct StaffState: Sendable {
    /// User id → end of the window in which the 2FA code may be requested and verified after a correct password.
    var pendingTwoFactor: [String: Double] = [:]
    /// Keyed by user id (2FA verify sends `userId`).
    var twoFactorCodes = OneTimeCodes<String>()
    /// Keyed by lowercased email (magic-link verify sends `email`).
    var magicLinkCodes = OneTimeCodes<String>()
    var families = RefreshFamilies()
    /// Set through `/__sandbox/staff/deactivate|activate`, so "User account is no longer active" can be shown.
    var activeOverride: [String: Bool] = [:]
    var lastLogin: [String: Double] = [:]
    /// User id → the newest TOTP step that signed in, so neither that code nor an older one works again.
    var lastTOTPStep: [String: Int64] = [:]
    /// User id → recovery codes already used (uppercased).
    var usedRecoveryCodes: [String: Set<String>] = [:]
    /// User id → emailed 2FA codes that signed in → when they expire. Kept only under the `code-survives-new-login`
    /// break, whose server ends the login (the 2FA window) but never marks the code used.
    var acceptedTwoFactorCodes: [String: [String: Double]] = [:]
    /// Note id → note (sandbox-only staff notes, `/api/sandbox/notes`).
    var notes: [String: SandboxNoteRoutes.Note] = [:]
}

/// Repair Minder customer state.
struct CustomerState: Sendable {
    /// Keyed by lowercased email.
    var codes = OneTimeCodes<String>()
    /// Session id → revoked? Customer JWTs carry the session id (Repair Minder API, docs/systems/repairminder.md, Customer JWT).
    var sessions: [String: Bool] = [:]
}
