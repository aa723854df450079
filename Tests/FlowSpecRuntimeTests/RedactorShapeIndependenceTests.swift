import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// A value registered as secret by where it comes from is masked whatever it looks like: tokens made only of
/// letters and `_` were taken for error codes (`otp_expired`) and shown on the console, by exec and in reports.
@Suite(.timeLimit(.minutes(5))) struct RedactorShapeIndependenceTests {
    static let token = "abcdef_ghijkl_mnopqr"
    static let upper = "ABCDEF_GHIJKL"

    @Test func aStoredOrCapturedValueIsMaskedWhateverItLooksLike() {
        let redactor = Redactor()
        redactor.registerStored("access_token", .string(Self.token))
        redactor.registerStored("refresh_token", .string(Self.upper))
        redactor.registerCaptured("code", .string("abc_def"))
        #expect(redactor.isSecret(Self.token) && redactor.isSecret(Self.upper) && redactor.isSecret("abc_def"))
        #expect(redactor.redact("sent \(Self.token) and \(Self.upper)") == "sent •••• and ••••")
    }

    @Test func aCredentialInAResponseIsMaskedWhateverItLooksLike() {
        let redactor = Redactor()
        let body = JSONValue.object(["access_token": .string(Self.token), "refreshToken": .string("Mixed_Case_Token")])
        redactor.registerCredentials(in: body)
        #expect(redactor.isSecret(Self.token) && redactor.isSecret("Mixed_Case_Token"))
        #expect(Redactor().shown(body) == #"{"access_token":"••••","refreshToken":"••••"}"#)
    }

    /// What the exception was for still holds: an error code a backend sends under `code` stays readable.
    @Test func errorCodesUnderACodeKeyStayReadable() {
        let redactor = Redactor()
        let body = JSONValue.object([
            "code": .string("otp_expired"), "error": .object(["code": .string("ACCOUNT_PENDING_APPROVAL")]),
        ])
        redactor.registerCredentials(in: body)
        #expect(!redactor.isSecret("otp_expired") && !redactor.isSecret("ACCOUNT_PENDING_APPROVAL"))
        #expect(redactor.shown(body) == #"{"code":"otp_expired","error":{"code":"ACCOUNT_PENDING_APPROVAL"}}"#)
    }
}
