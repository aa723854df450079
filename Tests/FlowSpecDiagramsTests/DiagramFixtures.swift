import FlowSpecLanguage
import TestSupport

@testable import FlowSpecDiagrams

/// A small flow with every state kind, both end verdicts, dashed edges and guards full of characters that
/// Mermaid and DOT treat specially — shared by the diagram and trace tests.
enum DiagramFixtures {
    static let kinds = """
        flow: t.kinds
        start: ask
        inputs: { code: { type: code } }
        states:
          ask: { input: code, goto: send, invalid: bad }
          send:
            request: { method: POST, path: "/api/users/${inputs.code}" }
            unreachable: offline
            on:
              - when: status == 200 && body.user.role != "admin"
                goto: route
              - when: matches(body.error, "expired|invalid")
                goto: pause
              - when: body["a:b"] == "x#1;{y}<z>`q`"
                goto: bad
              - else: true
                goto: bad
          route:
            choice:
              - when: len(inputs.code) < 6
                goto: sub
              - else: true
                goto: bad
          pause: { wait: 16m, goto: send }
          sub:
            call: t.other
            on:
              - when: outcome == "ok"
                goto: ok
              - else: true
                goto: bad
          ok: { end: authenticated, success: true }
          bad: { end: rejected, success: false }
          offline: { end: offline, success: false }
        """

    static let other = """
        flow: t.other
        start: done
        states:
          done: { end: ok, success: true }
        """

    static func kindsGraph() throws -> CompiledFlow {
        CompiledFlow(try kindsSpecs().flows["t.kinds"]!)
    }

    /// t.kinds and t.other, loaded and compiled.
    static func kindsSpecs() throws -> SpecSet {
        try TestSpecs.load(["kinds.yaml": kinds, "other.yaml": other])
    }
}
