import FlowSpecLanguage
import FlowSpecRuntime
import Foundation
import Testing

@testable import FlowSpecFuzzing

/// The pieces the response target's invariant is judged with: if they miss a secret, the target cannot find a leak.
struct ResponseHarnessTests {
    @Test func aSecretIsFoundByItsBytes() {
        #expect(FuzzInput.occurs("ak7Rt2Yp9Qw3Zx5M", in: "x: ak7Rt2Yp9Qw3Zx5M."))
        #expect(!FuzzInput.occurs("ak7Rt2Yp9Qw3Zx5M", in: "x: ak7Rt2Yp9Qw3Zx5"))
        // A combining mark after the secret hides it from a search by characters, not from one by bytes.
        #expect(FuzzInput.occurs("Pw9xQ4mZt7Lk2VbN", in: "Pw9xQ4mZt7Lk2VbN\u{065E}"))
    }

    @Test func escapesAreBlankedSoTheyCannotCompleteASecret() {
        // `\u001a` ends in the secret's first letter; blanked, the text no longer holds the secret.
        let written = #"{"b":"\u001ak7Rt2Yp9Qw3Zx5M"}"#
        #expect(FuzzInput.occurs("ak7Rt2Yp9Qw3Zx5M", in: written))
        #expect(!FuzzInput.occurs("ak7Rt2Yp9Qw3Zx5M", in: withoutEscapes(written)))
        // A real copy beside an escape is still found whole.
        #expect(FuzzInput.occurs("ak7Rt2Yp9Qw3Zx5M", in: withoutEscapes(#"\n ak7Rt2Yp9Qw3Zx5M"#)))
    }

    @Test func handedOutCredentialsAreOpaqueStringsUnderCredentialKeys() {
        let body = JSONValue.parse(
            #"{"access_token":"T0kenT0kenT0ken99","user":{"refresh_token":"R3freshR3freshR3"},"name":"N4meN4meN4meN4me","password":"short1"}"#
        )!
        #expect(Set(handedOutCredentials(body)) == ["T0kenT0kenT0ken99", "R3freshR3freshR3"])
    }

    @Test func aResponseIsReadAsOnTheWire() {
        let response = HTTPResponse(fuzzed: Data("201\nX-A: b\n\n{\"k\":1}".utf8))
        #expect(response.status == 201)
        #expect(response.headers.map(\.0) == ["X-A"] && response.headers.map(\.1) == ["b"])
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"k\":1}")
        #expect(HTTPResponse(fuzzed: Data("1000\n\nx".utf8)).status == 200)
    }
}
