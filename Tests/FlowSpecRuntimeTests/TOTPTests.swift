import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// `totp(secret, digits, period, algorithm)`, RFC 6238.
@Suite(.timeLimit(.minutes(5))) struct TOTPTests {
    /// RFC 6238 Appendix B's keys are ASCII; flows take base32, so these are those keys base32-encoded.
    static let sha1Seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ" // "12345678901234567890"
    static let sha256Seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA====" // 32 bytes
    static let sha512Seed =
        "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA="

    static let here = SourceLocation(file: "flows/t/x.yaml", line: 7, column: 12)

    static func evaluate(_ text: String, now: Double, vars: [String: JSONValue] = [:], redactor: Redactor? = nil) throws
        -> JSONValue
    {
        guard case .success(let expr) = ExpressionParser.parse(text, at: here) else { throw CancellationError() }
        var env = Environment()
        env.now = now
        env.vars = vars
        env.redactor = redactor
        return try Evaluator.evaluate(expr, env)
    }

    /// RFC 6238 Appendix B, every row: time, then the 8-digit TOTP for SHA1, SHA256 and SHA512.
    @Test(
        "RFC 6238 Appendix B test vectors",
        arguments: [
            (59.0, "94287082", "46119246", "90693936"),
            (1_111_111_109, "07081804", "68084774", "25091201"),
            (1_111_111_111, "14050471", "67062674", "99943326"),
            (1_234_567_890, "89005924", "91819424", "93441116"),
            (2_000_000_000, "69279037", "90698825", "38618901"),
            (20_000_000_000, "65353130", "77737706", "47863826"),
        ])
    func rfcVectors(time: Double, sha1: String, sha256: String, sha512: String) throws {
        #expect(try Self.evaluate(#"totp("\#(Self.sha1Seed)", 8)"#, now: time) == .string(sha1))
        #expect(try Self.evaluate(#"totp("\#(Self.sha1Seed)", 8, 30, "sha1")"#, now: time) == .string(sha1))
        #expect(try Self.evaluate(#"totp("\#(Self.sha256Seed)", 8, 30, "sha256")"#, now: time) == .string(sha256))
        #expect(try Self.evaluate(#"totp("\#(Self.sha512Seed)", 8, 30, "SHA512")"#, now: time) == .string(sha512))
        // Six digits (the default) are the last six of the eight.
        #expect(try Self.evaluate(#"totp("\#(Self.sha1Seed)")"#, now: time) == .string(String(sha1.suffix(6))))
    }

    @Test func base32IsReadAsAuthenticatorAppsShowIt() throws {
        let plain = try Self.evaluate(#"totp("JBSWY3DPEHPK3PXP")"#, now: 1_700_000_000)
        #expect(plain == .string("324550")) // computed outside Swift (Python's hmac)
        #expect(try Self.evaluate(#"totp("jbsw y3dp ehpk 3pxp")"#, now: 1_700_000_000) == plain)
        #expect(try Self.evaluate(#"totp("JBSWY3DPEHPK3PXP===")"#, now: 1_700_000_000) == plain)
        #expect(
            try Self.evaluate(
                #"totp(vars.totp_secret)"#, now: 1_700_000_000, vars: ["totp_secret": .string("JBSWY3DPEHPK3PXP")])
                == plain)
        #expect(
            try Self.evaluate(#"totp("JBSWY3DPEHPK3PXP", 8, 30, "sha256")"#, now: 1_700_000_000) == .string("32049486"))
    }

    @Test func theCodeChangesEvery30SecondsAndAtThePeriodGiven() throws {
        let secret = #""JBSWY3DPEHPK3PXP""#
        let start = 1_700_000_010.0 // step 56666667 runs from ...010 to ...039.999
        let a = try Self.evaluate("totp(\(secret))", now: start)
        #expect(try Self.evaluate("totp(\(secret))", now: start + 29.999) == a)
        #expect(try Self.evaluate("totp(\(secret))", now: start + 30) != a)
        #expect(
            try Self.evaluate("totp(\(secret), 6, 60)", now: 1_700_000_040)
                == Self.evaluate("totp(\(secret), 6, 60)", now: 1_700_000_099.9))
    }

    @Test(
        "bad secrets and arguments are located runtime errors that never quote the secret",
        arguments: [
            (
                #"totp(vars.s)"#, ["s": JSONValue.string("NOT-BASE32-SECRET")],
                "character 4 of the secret is not one of them"
            ),
            (#"totp(vars.s)"#, ["s": JSONValue.string("  ")], "it is empty"),
            (#"totp(vars.s)"#, ["s": JSONValue.string("A")], "at least 2 characters"),
            (#"totp(vars.s)"#, ["s": JSONValue.number(123456)], "needs the base32 secret as text"),
            (#"totp(vars.s)"#, ["s": JSONValue.null], "null (missing)"),
            (
                #"totp("JBSWY3DPEHPK3PXP", vars.n)"#, ["n": JSONValue.number(5)],
                "digits must be a whole number from 6 to 8"
            ),
            (
                #"totp("JBSWY3DPEHPK3PXP", vars.n)"#, ["n": JSONValue.string("6")],
                "digits must be a whole number from 6 to 8"
            ),
            (
                #"totp("JBSWY3DPEHPK3PXP", 6, vars.n)"#, ["n": JSONValue.number(0)],
                "period must be a whole number of seconds"
            ),
            (
                #"totp("JBSWY3DPEHPK3PXP", 6, 30, vars.a)"#, ["a": JSONValue.string("md5")],
                #"one of "sha1", "sha256", "sha512""#
            ),
        ])
    func runtimeErrors(expression: String, vars: [String: JSONValue], message: String) {
        do {
            let value = try Self.evaluate(expression, now: 1_700_000_000, vars: vars)
            Issue.record("expected an error, got \(value)")
        } catch let error as EvaluationError {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(!error.message.contains("NOT-BASE32"))
            #expect(error.location.file == "flows/t/x.yaml" && error.location.line == 7)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theSecretAndTheCodeAreRegisteredAsSecrets() throws {
        let redactor = Redactor()
        let code = try Self.evaluate(
            "totp(vars.totp_secret)", now: 1_700_000_000, vars: ["totp_secret": .string("JBSWY3DPEHPK3PXP")],
            redactor: redactor)
        #expect(code == .string("324550"))
        #expect(redactor.redact("code 324550 from JBSWY3DPEHPK3PXP") == "code •••• from ••••")
    }

    /// A flow sends `totp(...)` on the run's clock: the virtual clock makes the code exact, and `wait` moves it.
    @Test func aFlowUsesTheRunsVirtualClock() async throws {
        let flow = """
            flow: t.app2fa
            start: first
            states:
              first:
                request: { method: POST, path: /verify, json: { code: "${totp(vars.totp_secret)}" } }
                on:
                  - when: status == 200
                    goto: later
              later:
                wait: 30s
                goto: second
              second:
                request: { method: POST, path: /verify, json: { code: "${totp(vars.totp_secret)}" } }
                on:
                  - when: status == 200
                    goto: done
              done: { end: done, success: true }
            """
        let backend = FakeBackend { _, _ in json(200, "{}") }
        let (made, _, redactor) = makeContext(
            try TestSpecs.load(["t/app2fa.yaml": flow]), backend, clock: VirtualClock(start: 1_700_000_000))
        var context = made
        context.vars = ["totp_secret": .string("JBSWY3DPEHPK3PXP")]
        let result = await Interpreter(context: context).run(flow: "t.app2fa")
        #expect(result.outcome == "done")
        let sent = await backend.requests.map { $0.json?["code"] }
        #expect(
            sent == [
                .string("324550"),
                .string(try Self.evaluate(#"totp("JBSWY3DPEHPK3PXP")"#, now: 1_700_000_030).stringValue!),
            ])
        #expect(sent[0] != sent[1])
        #expect(redactor.redact("324550") == Redactor.mask)
    }
}
