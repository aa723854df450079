import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// A caller whose guards read an input that its sub-flow asks for: the sub-flow must get the value first.
@Suite(.timeLimit(.minutes(5))) struct CallInputTests {
    @Test func aCallersGuardReadingAnInputDoesNotConsumeTheSubFlowsAnswer() async throws {
        let pick = """
            flow: t.pick
            inputs: { company: { type: string } }
            start: ask
            states:
              ask: { input: company, goto: done }
              done: { end: picked, success: true }
            """
        let caller = """
            flow: t.caller
            inputs: { company: { type: string } }
            start: call_pick
            states:
              call_pick:
                call: t.pick
                on:
                  - when: outcome == "picked" && inputs.company == "beta"
                    goto: ok
                  - else: true
                    goto: wrong
              ok: { end: ok, success: true }
              wrong: { end: wrong, success: false }
            """
        let specs = try TestSpecs.load(["t/pick.yaml": pick, "t/caller.yaml": caller])
        let (context, _, _) = makeContext(specs, FakeBackend { _, _ in json(500, "{}") }, inputs: ["company": ["beta"]])
        let result = await Interpreter(context: context).run(flow: "t.caller")
        #expect(result.outcome == "ok", "\(result.reason)")
    }
}

@Suite(.timeLimit(.minutes(5))) struct RedactorShapeTests {
    @Test func idsTimesAndShortCodesStayReadableWhileCredentialsAreMasked() {
        let r = Redactor()
        r.registerStored("user_id", .string("6f1c2a3b-1111-4222-8333-444455556666"))
        r.registerStored("created_at", .string("2026-11-21T06:30:27.123Z"))
        r.registerStored("opaque", .string("a1b2c3d4e5f6g7h8i9j0k1l2"))
        r.registerCredentials(
            in: .object(["refreshToken": .string("rt-123456789"), "updated_at": .string("2026-11-21T06:30:27Z")]))
        let text =
            "6f1c2a3b-1111-4222-8333-444455556666 2026-11-21T06:30:27.123Z a1b2c3d4e5f6g7h8i9j0k1l2 rt-123456789 2026-11-21T06:30:27Z"
        #expect(
            r.redact(text)
                == "6f1c2a3b-1111-4222-8333-444455556666 2026-11-21T06:30:27.123Z •••• •••• 2026-11-21T06:30:27Z")
        let shown = r.maskedJSON(
            .object(["currency_code": .string("GBP"), "code": .string("123456"), "error_code": .string("otp_expired")]))
        #expect(
            shown
                == .object([
                    "currency_code": .string("GBP"), "code": .string("••••"), "error_code": .string("otp_expired"),
                ]))
    }
}
