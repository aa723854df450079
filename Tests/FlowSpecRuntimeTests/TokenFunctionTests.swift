import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// `slice()` and `forge_jwt()`: what a flow needs to send a cut or forged token, as `flowspec probe` does.
@Suite(.timeLimit(.minutes(5))) struct TokenFunctionTests {
    static func evaluate(_ text: String, vars: [String: JSONValue] = [:], redactor: Redactor? = nil) throws -> JSONValue
    {
        try TOTPTests.evaluate(text, now: 0, vars: vars, redactor: redactor)
    }

    static func error(_ text: String, vars: [String: JSONValue] = [:]) -> String? {
        do { _ = try evaluate(text, vars: vars); return nil } catch let e as EvaluationError { return e.message } catch
        { return "\(error)" }
    }

    /// A token as HS256 backends issue them: header, claims, signature.
    static let token: String = {
        let header = JWT.base64URLEncode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let claims = JWT.base64URLEncode(Data(#"{"exp":1700000000,"role":"customer","sub":"u1"}"#.utf8))
        return "\(header).\(claims).c2lnbmF0dXJlLWJ5dGVz"
    }()

    /// base64url's two letters of its own (`-`, `_`) and its missing padding (RFC 4648 section 5).
    @Test func base64URLIsDecodedWithoutPadding() {
        #expect(JWT.base64URLDecode("-_8") == Data([0xFB, 0xFF]))
        #expect(JWT.base64URLDecode("eyJhIjoxfQ") == Data(#"{"a":1}"#.utf8))
        #expect(JWT.base64URLDecode("é") == nil)
    }

    @Test(arguments: [
        (#"slice("abcdef", 0, 3)"#, "abc"), (#"slice("abcdef", 2)"#, "cdef"), (#"slice("abcdef", -2)"#, "ef"),
        (#"slice("abcdef", 0, -1)"#, "abcde"), (#"slice("abcdef", 0, 2.9)"#, "ab"), (#"slice("abcdef", 4, 2)"#, ""),
        (#"slice("abcdef", -100, 100)"#, "abcdef"), (#"slice("abcdef", 0, 99999999999999999999999)"#, "abcdef"),
        (#"slice("héllo", 1, 2)"#, "é"),
        (#"slice("abcde", 0, len("abcde") / 2)"#, "ab"),
    ])
    func sliceCountsCharactersRoundsDownAndStaysInside(_ text: String, _ expected: String) throws {
        #expect(try Self.evaluate(text) == .string(expected), "\(text)")
    }

    @Test func sliceOfMissingIsMissingAndWrongTypesAreErrors() throws {
        #expect(try Self.evaluate("slice(vars.nothing, 0, 2)", vars: ["nothing": .null]) == .null)
        #expect(Self.error("slice(vars.n, 0)", vars: ["n": .number(5)])?.contains("`slice` takes text") == true)
        #expect(
            Self.error(#"slice("abc", vars.s)"#, vars: ["s": .string("1")])?.contains("character positions as numbers")
                == true)
    }

    @Test func aSliceOfASecretIsASecret() throws {
        let redactor = Redactor()
        redactor.register("s3cret-token-value")
        #expect(
            try Self.evaluate("slice(vars.t, 0, 9)", vars: ["t": .string("s3cret-token-value")], redactor: redactor)
                == .string("s3cret-to"))
        #expect(redactor.redact("sent s3cret-to") == "sent ••••")
        _ = try Self.evaluate("slice(vars.t, 0, 5)", vars: ["t": .string("public-text")], redactor: redactor)
        #expect(redactor.redact("sent publi") == "sent publi", "a piece of a value that is not secret stays readable")
    }

    @Test func forgeJWTMakesTheThreeForgeries() throws {
        let redactor = Redactor()
        let vars: [String: JSONValue] = ["t": .string(Self.token)]
        let parts = Self.token.split(separator: ".").map(String.init)

        let altered = try #require(
            try Self.evaluate(#"forge_jwt(vars.t, "altered_signature")"#, vars: vars, redactor: redactor).stringValue)
        let alteredParts = altered.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(
            alteredParts[0] == parts[0] && alteredParts[1] == parts[1] && alteredParts[2] != parts[2]
                && alteredParts[2].count == parts[2].count)

        let claims = try #require(try Self.evaluate(#"forge_jwt(vars.t, "altered_claims")"#, vars: vars).stringValue)
        let claimsParts = claims.split(separator: ".").map(String.init)
        #expect(claimsParts[0] == parts[0] && claimsParts[2] == parts[2])
        #expect(JWT.claims(claims)?["exp"] == .number(1_700_000_000 + 86_400 * 365))
        #expect(JWT.claims(claims)?["role"] == .string("customer"))

        let unsigned = try #require(
            try Self.evaluate(#"forge_jwt(vars.t, "unsigned")"#, vars: vars, redactor: redactor).stringValue)
        #expect(unsigned.hasSuffix(".") && unsigned.split(separator: ".")[1] == parts[1])
        #expect(
            String(decoding: try #require(JWT.base64URLDecode(unsigned.split(separator: ".")[0])), as: UTF8.self)
                == #"{"alg":"none","typ":"JWT"}"#)
        #expect(redactor.redact("Bearer \(unsigned)") == "Bearer ••••", "a forged token is masked like the token")
        #expect(redactor.redact(altered) == "••••")
    }

    @Test func forgeJWTWithoutAnExpAddsAClaim() throws {
        let token =
            JWT.base64URLEncode(Data(#"{"alg":"HS256"}"#.utf8)) + "." + JWT.base64URLEncode(Data(#"{"sub":"u1"}"#.utf8))
            + ".sig"
        let forged = try #require(JWT.forge(token, .alteredClaims))
        #expect(JWT.claims(forged)?["flowspec_probe"] == .bool(true))
    }

    @Test func forgeJWTOfWhatIsNoJWTIsAnErrorThatDoesNotQuoteTheToken() {
        let message = Self.error(#"forge_jwt(vars.t, "unsigned")"#, vars: ["t": .string("opaque-secret-token")])
        #expect(message?.contains("`forge_jwt` needs a JWT") == true, "\(message ?? "")")
        #expect(message?.contains("opaque-secret-token") == false)
        #expect(
            Self.error(#"forge_jwt(vars.nothing, "unsigned")"#, vars: ["nothing": .null])?.contains("null (missing)")
                == true)
        #expect(
            Self.error("forge_jwt(vars.t, vars.w)", vars: ["t": .string(Self.token), "w": .string("sideways")])?
                .contains(#"forges one of "altered_signature", "altered_claims", "unsigned""#) == true)
    }
}
