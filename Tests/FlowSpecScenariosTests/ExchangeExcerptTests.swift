import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// The failure report's last exchange masks before it cuts: a secret that straddles the 300-character limit
/// must not show its first half.
@Suite(.timeLimit(.minutes(5))) struct ExchangeExcerptTests {
    @Test func aSecretAcrossTheLimitIsMaskedNotHalfShown() {
        let secret = "S3cretTokenValue9876"
        let redactor = Redactor()
        redactor.register(secret)
        let body = String(repeating: "x", count: 290) + secret + " tail"
        let entry = ExchangeLog.Entry(
            flow: "t.me", state: "me", request: HTTPRequest(method: "GET", baseURL: nil, path: "/me"),
            response: HTTPResponse(status: 500, headers: [("Content-Type", "text/plain")], body: Data(body.utf8)),
            failure: nil)
        let text = ExchangeExcerpt.describe(entry, redactor)
        #expect(!text.contains("S3cretTo"), "the secret's start shows: \(text)")
        #expect(text.contains(Redactor.mask))
    }
}
