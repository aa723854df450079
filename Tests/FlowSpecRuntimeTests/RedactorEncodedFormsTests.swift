import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// A backend that echoes a secret percent-encoded, in base64, or HTML- or JSON-escaped must not get it shown:
/// each registered secret is searched in those forms too.
@Suite(.timeLimit(.minutes(5))) struct RedactorEncodedFormsTests {
    static let password = "correct horse/battery+staple&\"9\"<é>"
    static let token = "Pw9xQ4mZt7Lk2VbN"

    static func redactor() -> Redactor {
        let redactor = Redactor()
        redactor.register(password)
        redactor.register(token)
        return redactor
    }

    static func leaks(_ text: String) -> Bool {
        text.contains("horse") || text.contains("staple") || text.contains("Pw9x") || text.contains("VbN")
    }

    @Test(arguments: [
        // Percent-encoded as query strings and form bodies are written: RFC 3986, form (`+`), lower-case hex,
        // JavaScript's encodeURIComponent, Foundation's urlQueryAllowed.
        "GET /login?password=correct%20horse%2Fbattery%2Bstaple%26%229%22%3C%C3%A9%3E: connection refused",
        "password=correct+horse%2Fbattery%2Bstaple%26%229%22%3C%C3%A9%3E&x=1",
        "p=correct%20horse%2fbattery%2bstaple%26%229%22%3c%c3%a9%3e",
        "q=\(password.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!)",
        // HTML, as Python's html.escape and Go's html.EscapeString write it.
        "<p>Wrong password: correct horse/battery+staple&amp;&quot;9&quot;&lt;é&gt;</p>",
        "<p>correct horse/battery+staple&amp;&#34;9&#34;&lt;é&gt;</p>",
        // JSON-escaped inside a string (JavaScript; PHP with \\/ and \\u00e9; Go with \\u003c).
        #"{"detail":"got \"correct horse/battery+staple&\"9\"<é>\""}"#,
        #"{"detail":"correct horse\/battery+staple&\"9\"<\u00e9>"}"#,
        #"{"detail":"correct horse/battery+staple\u0026\"9\"\u003cé\u003e"}"#,
    ])
    func aSecretEchoedInAnEncodingIsMasked(text: String) {
        let shown = Self.redactor().redact(text)
        #expect(!Self.leaks(shown), "shown: \(shown)")
        #expect(shown.contains(Redactor.mask))
    }

    @Test func base64AloneInBothAlphabetsWithOrWithoutPaddingIsMasked() {
        let redactor = Self.redactor()
        for secret in [Self.password, Self.token] {
            let standard = Data(secret.utf8).base64EncodedString()
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            for form in [standard, url, String(standard.prefix { $0 != "=" }), String(url.prefix { $0 != "=" })] {
                #expect(redactor.isSecret(form), "\(form)")
                #expect(redactor.redact("echo: \(form).") == "echo: \(Redactor.mask).", "\(form)")
                #expect(redactor.shown(.object(["data": .string(form)])) == #"{"data":"••••"}"#)
            }
        }
    }

    /// Basic credentials are `base64(user:password)`: the password starts at any offset modulo 3, so its base64
    /// is found inside the longer text at each of the three alignments; so is a token inside an encoded document.
    @Test func base64OfASecretInsideALongerEncodedTextIsMasked() {
        let redactor = Self.redactor()
        for user in ["a", "ab", "abc", "staff@example.com"] {
            let basic = Data("\(user):\(Self.token)".utf8).base64EncodedString()
            let shown = redactor.redact("echoed header: Basic \(basic)")
            // Masked from within the user's characters to the end: at most the 3 characters either side of the
            // password's own, which mix in the user's bytes or padding, stay.
            #expect(shown.hasPrefix("echoed header: Basic ") && shown.contains(Redactor.mask), "\(user): \(shown)")
            let visible = shown.dropFirst("echoed header: Basic ".count).components(separatedBy: Redactor.mask)
            #expect(
                visible.count == 2 && visible[0].count <= (user.count + 1) * 4 / 3 + 1 && visible[1].count <= 3,
                "\(user): \(shown)")
        }
        let document = Data(#"{"session":{"refresh":"\#(Self.token)","n":1}}"#.utf8).base64EncodedString()
        let shown = redactor.redact(document)
        #expect(shown.contains(Redactor.mask), "\(shown)")
    }

    /// Short secrets are masked as whole values only, encoded or not; nothing else is garbled by their forms.
    @Test func shortSecretsAreMaskedInTheirFormsAsWholeValuesOnly() {
        let redactor = Redactor()
        redactor.register("a b")
        #expect(redactor.isSecret("a%20b") && redactor.isSecret("a+b") && redactor.isSecret("YSBi"))
        #expect(redactor.redact("YSBi is a word here, and so is a+b") == "YSBi is a word here, and so is a+b")
        #expect(redactor.redactURL("/x?p=a%20b") == "/x?p=••••")
    }
}
