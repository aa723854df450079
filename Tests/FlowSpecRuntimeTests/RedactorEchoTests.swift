import Testing
import FlowSpecLanguage
import FlowSpecRuntime

/// A backend that echoes a secret where masking by key cannot see it — as a header name, as a JSON key — must
/// not put it on screen or in a report (found by the response fuzz target, Fuzz/Crashes/response-*).
@Suite(.timeLimit(.minutes(5))) struct RedactorEchoTests {
    let password = "Pw9xQ4mZt7Lk2VbN"

    @Test func aSecretInAHeaderNameIsMasked() {
        let redactor = Redactor()
        redactor.register(password)
        let shown = redactor.maskedHeader("Contecho aaaa1\(password) x", "text/plain")
        #expect(shown.name == "Contecho aaaa1\(Redactor.mask) x")
        #expect(shown.value == "text/plain")
        #expect(redactor.maskedHeader("Authorization", "Bearer \(password)") == ("Authorization", "Bearer \(Redactor.mask)"))
    }

    @Test func aSecretAsAJSONKeyIsMasked() {
        let redactor = Redactor()
        redactor.register(password)
        let masked = redactor.maskedJSON(.object([password: .string("invalid"), "user": .object(["x\(password)": .number(1)])]))
        #expect(!masked.compactJSON.contains(password))
        #expect(masked[Redactor.mask] == .string("invalid"))
    }
}
