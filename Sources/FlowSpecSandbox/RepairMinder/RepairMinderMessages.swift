/// Every Repair Minder message in one place. Those marked "documented" are quoted from the Repair Minder API (docs/systems/repairminder.md); the others
/// come from the scripted scenarios or are sandbox choices (docs/sandbox.md, "Not in the system descriptions").
enum RepairMinderMessages {
    // documented (docs/systems/repairminder.md)
    static let invalidCredentials = "Invalid credentials"
    static let deactivated = "Account is deactivated"
    static let archived = "Account has been archived and cannot login"
    static let noPassword = "No password set. Please use Magic Link login or set a password in Settings."
    static let twoFactorSent = "2FA code sent to your email"
    static let magicLinkSent = "Magic link sent"
    static let customerLinkSent = "If an account exists, a login code has been sent"
    static let invalidRefreshToken = "Invalid refresh token"
    static let refreshTokenExpired = "Refresh token expired"
    static let noLongerActive = "User account is no longer active"
    static let tokenReuse = "Token reuse detected. All sessions revoked. Please log in again."
    static let pendingApproval = "Your account is pending approval..."
    static let pendingApprovalCode = "ACCOUNT_PENDING_APPROVAL"

    // scenarios (scenarios/repairminder/*.yaml)
    static let invalidVerificationCode = "Invalid verification code"
    static let invalidOrExpiredCode = "Invalid or expired code"
    static let invalidToken = "Invalid token"
    static let tokenExpired = "Token expired"

    // sandbox choices
    static let authenticationRequired = "Authentication required"
    static let sessionRevoked = "Session has been revoked"
    static let twoFactorWindowClosed = "Two-factor session expired. Please log in again."
    static let invalidCompany = "Invalid company selection"
    static let notFound = "Not found"
    static let invalidJSON = "Invalid JSON body"
    static let accessDenied = "Access denied"
    static let noteNotFound = "Note not found"
    /// What the `wrong-error-message` break says instead of "Invalid credentials".
    static let brokenInvalidCredentials = "Invalid email or password"
    /// What the `refresh-garbage-crashes` break answers, with 500, for a refresh token too short to split.
    static let internalError = "Internal server error"
    /// What the `customer-enumeration` break tells an unknown email.
    static let brokenNoCustomer = "No account found for this email"
}
