import Foundation

/// A GoTrue error, rendered in whichever envelope the request asked for (docs/systems/supabase-auth.md;
/// github.com/supabase/auth, internal/api/errors.go):
/// with `X-Supabase-Api-Version: 2024-01-01` or later `{"code": "<error_code>", "message": …}`, otherwise the
/// legacy `{"code": <status>, "error_code": …, "msg": …}`; `x-sb-error-code` either way.
struct SupabaseError: Error, Sendable {
    let status: Int
    let code: String
    let message: String

    func reply(for request: SandboxRequest) -> Reply {
        var headers = SupabaseAPIVersion.responseHeaders(for: request)
        headers["x-sb-error-code"] = code
        if SupabaseAPIVersion.usesNewEnvelope(request) {
            return .json(status, ["code": .string(code), "message": .string(message)], headers: headers)
        }
        return .json(
            status, ["code": .int(status), "error_code": .string(code), "msg": .string(message)], headers: headers)
    }

    static func validation(_ message: String) -> SupabaseError {
        SupabaseError(status: 400, code: "validation_failed", message: message)
    }

    static let otpExpired = SupabaseError(status: 403, code: "otp_expired", message: "Token has expired or is invalid")
    static let invalidPhone = validation("Invalid phone number format (E.164 required)")
    static let noAuthorization = SupabaseError(
        status: 401, code: "no_authorization",
        message: "This endpoint requires a valid Bearer token")
    static let sessionNotFound = SupabaseError(
        status: 403, code: "session_not_found",
        message: "Session from session_id claim in JWT does not exist")
    static let refreshTokenNotFound = SupabaseError(
        status: 400, code: "refresh_token_not_found",
        message: "Invalid Refresh Token: Refresh Token Not Found")
    static let invalidChannel =
        "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or Twilio Verify is used as the provider."
    static let refreshTokenAlreadyUsed = SupabaseError(
        status: 400, code: "refresh_token_already_used",
        message: "Invalid Refresh Token: Already Used")
}

enum SupabaseAPIVersion {
    static let current = "2024-01-01"

    /// A `YYYY-MM-DD` version on or after 2024-01-01 selects the new envelope.
    static func usesNewEnvelope(_ request: SandboxRequest) -> Bool {
        guard let value = request.header("x-supabase-api-version")?.trimmingCharacters(in: .whitespaces),
            value.count == 10, value.allSatisfy({ $0.isNumber || $0 == "-" })
        else { return false }
        return value >= current
    }

    /// GoTrue echoes the version it answered with.
    static func responseHeaders(for request: SandboxRequest) -> [String: String] {
        usesNewEnvelope(request) ? ["X-Supabase-Api-Version": current] : [:]
    }
}
