import FlowSpecLanguage
import FlowSpecRuntime
import Testing

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
        #expect(
            redactor.maskedHeader("Authorization", "Bearer \(password)") == ("Authorization", "Bearer \(Redactor.mask)")
        )
    }

    @Test func aSecretAsAJSONKeyIsMasked() {
        let redactor = Redactor()
        redactor.register(password)
        let masked = redactor.maskedJSON(
            .object([password: .string("invalid"), "user": .object(["x\(password)": .number(1)])]))
        #expect(!masked.compactJSON.contains(password))
        #expect(masked[Redactor.mask] == .string("invalid"))
    }

    /// `N` + U+065E is one character to Foundation's search, so a grapheme-aware search missed the password
    /// (Fuzz/Crashes/response-combining-mark-hides-secret). Matched by bytes, it is masked and the mark kept.
    @Test func aSecretFollowedByACombiningMarkIsMasked() {
        let redactor = Redactor()
        redactor.register(password)
        let name = "Xho \(password)\u{065E} ak"
        let shown = redactor.maskedHeader(name, "text/plain").name
        #expect(!Array(shown.utf8).contains(Array(password.utf8)))
        #expect(shown == "Xho \(Redactor.mask)\u{065E} ak")
        #expect(redactor.redact("\u{0301}\(password)\(password)") == "\u{0301}\(Redactor.mask)\(Redactor.mask)")
        #expect(redactor.redact("no secret here: Pw9xQ4mZt7Lk2Vb") == "no secret here: Pw9xQ4mZt7Lk2Vb")
    }
}
