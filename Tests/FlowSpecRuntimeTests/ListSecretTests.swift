import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// List functions pick elements out of a body; what was secret stays masked, and what the element scope derives
/// (a `slice`, a `totp`) is registered through it like anywhere else.
@Suite(.timeLimit(.minutes(5))) struct ListSecretTests {
    static let first = "rt-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
    static let second = "rt-0a1b2c3d4e5f60718293a4b5c6d7e8f9"
    static let here = SourceLocation(file: "flows/t/x.yaml", line: 4, column: 15)

    /// The run's view of a response whose body lists tokens.
    static func evaluate(_ text: String, redactor: Redactor) throws -> JSONValue {
        guard case .success(let expr) = ExpressionParser.parse(text, at: Self.here) else { throw CancellationError() }
        let body =
            #"{"tokens": [{"kind": "refresh", "value": "\#(first)"}, {"kind": "refresh", "value": "\#(second)"}], "secrets": ["JBSWY3DPEHPK3PXP"]}"#
        var env = Environment()
        env.response = HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
        env.redactor = redactor
        env.now = 1_700_000_000
        return try Evaluator.evaluate(expr, env)
    }

    @Test func mappedStoredTokensAreMasked() throws {
        let redactor = Redactor()
        // The flow stored the tokens (`store: { refresh_tokens: body.tokens }`): a credential's name.
        redactor.registerStored("refresh_tokens", try Self.evaluate("body.tokens", redactor: Redactor()))
        let mapped = try Self.evaluate("map(body.tokens, it.value)", redactor: redactor)
        #expect(mapped == .array([.string(Self.first), .string(Self.second)]))
        let shown = redactor.shown(mapped) + " " + redactor.redact("sent \(mapped.interpolated) and \(Self.first)")
        #expect(!shown.contains(Self.first) && !shown.contains(Self.second), "\(shown)")
        #expect(!shown.contains("rt-9f8e"), "no piece of a token: \(shown)")
        let picked = try Self.evaluate(#"first(body.tokens, it.kind == "refresh").value"#, redactor: redactor)
        #expect(redactor.redact("sent \(picked.interpolated)") == "sent ••••")
    }

    /// The element scope passes `isSecret` and `sawSecret` through: a slice of a secret element is a secret, and a
    /// `totp` of an element registers its secret and code.
    @Test func whatIsDerivedFromAnElementIsRegistered() throws {
        let redactor = Redactor()
        redactor.register(Self.first)
        let sliced = try Self.evaluate("map(body.tokens, slice(it.value, 0, 12))", redactor: redactor)
        #expect(sliced == .array([.string(String(Self.first.prefix(12))), .string(String(Self.second.prefix(12)))]))
        #expect(redactor.redact("sent \(Self.first.prefix(12))") == "sent ••••")
        #expect(
            redactor.redact("sent \(Self.second.prefix(12))") == "sent \(Self.second.prefix(12))",
            "a piece of a value that is not secret stays readable")

        let codes = try Self.evaluate("map(body.secrets, totp(it))", redactor: redactor)
        guard case .array(let items) = codes, let code = items.first?.stringValue else {
            Issue.record("no code: \(codes)")
            return
        }
        #expect(redactor.redact("code \(code) secret JBSWY3DPEHPK3PXP") == "code •••• secret ••••")
    }
}
