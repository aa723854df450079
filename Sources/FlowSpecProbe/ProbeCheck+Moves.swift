import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// Moves the refresh attacks share.
extension ProbeCheck {
    /// The session's tokens after one more refresh, or nil when the family no longer refreshes.
    func stillRefreshes(_ tokens: [String: JSONValue]) async -> [String: JSONValue]? {
        guard let token = refreshToken(tokens) else { return nil }
        let refreshed = await probe.refresh(with: token, tokens: tokens)
        return refreshed.accepted ? refreshed.tokens : nil
    }

    /// Whether a request carries `value`: in a query or form value, or anywhere in its body.
    static func carries(_ request: HTTPRequest, _ value: String) -> Bool {
        if request.query.contains(where: { $0.1 == value }) || request.form?.contains(where: { $0.1 == value }) == true
        {
            return true
        }
        guard let body = request.body else { return false }
        return String(decoding: body, as: UTF8.self).contains(value)
    }
}
