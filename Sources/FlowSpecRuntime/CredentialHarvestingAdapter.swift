import FlowSpecLanguage
import Foundation

/// Wraps a live adapter so every credential a backend hands out (a string under a key such as `token`,
/// `refreshToken`, `access_token`) is known to the redactor the moment it arrives — even when the flow never
/// stores it, or fails before it can.
package struct CredentialHarvestingAdapter: HTTPAdapter {
    package let inner: any HTTPAdapter
    package let redactor: Redactor

    package init(_ inner: any HTTPAdapter, redactor: Redactor) {
        self.inner = inner
        self.redactor = redactor
    }

    package var preferredExecutor: (any TaskExecutor)? { inner.preferredExecutor }

    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = try await inner.send(request)
        redactor.registerCredentials(in: response.json)
        return response
    }
}

extension Redactor {
    /// Registers string values under credential-like keys (`token`, `refreshToken`, `access_token`…), at any
    /// depth. By key only: a live body's timestamps and ids are not secrets, whatever their length.
    package func registerCredentials(in json: JSONValue) {
        switch json {
        case .object(let fields):
            for (key, value) in fields {
                if case .string(let s) = value {
                    if Redactor.isSensitiveKey(key),
                        !(CredentialKey.namesOnlyACode(key) && Redactor.looksLikeErrorCode(s))
                    {
                        register(s, bulk: true)
                    }
                } else {
                    registerCredentials(in: value)
                }
            }
        case .array(let items): items.forEach { registerCredentials(in: $0) }
        default: break
        }
    }
}
