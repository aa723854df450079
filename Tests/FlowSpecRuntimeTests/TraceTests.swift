import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// Traces are what coverage, diagrams and reports are built from: each edge and false guard must be exact.
@Suite(.timeLimit(.minutes(5))) struct TraceTests {
    static let callerYAML = """
        flow: t.caller
        start: first
        states:
          first:
            call: t.me
            on:
              - when: outcome == "nope"
                goto: failed
              - when: outcome == "ok"
                goto: done
          done: { end: done, success: true }
          failed: { end: failed, success: false }
        """

    @Test func recordsEdgesFalseGuardsParentsAndWhichVisitSentEachRequest() async throws {
        let specs = try TestSpecs.load([
            "s.yaml": sessionYAML, "r.yaml": refreshYAML, "m.yaml": meYAML, "c.yaml": TraceTests.callerYAML,
        ])
        let backend = FakeBackend { request, _ in
            switch (request.path, request.header("Authorization")) {
            case ("/me", "Bearer old"?): json(401, "{}")
            case ("/refresh", _): json(200, #"{"access":"new","refresh":"r2"}"#)
            default: json(200, #"{"id":"u1"}"#)
            }
        }
        var (context, _, _) = makeContext(
            specs, backend, store: ["t": ["access": .string("old"), "refresh": .string("r1")]])
        let recorder = TraceRecorder()
        context.trace = recorder
        let log = context.log
        let result = await Interpreter(context: context).run(flow: "t.caller")
        #expect(result.outcome == "done")

        let runs = recorder.traces
        #expect(runs.map(\.flowName) == ["t.caller", "t.me", "t.refresh"])
        // Each run refers to the program's own compiled flow.
        #expect(runs.allSatisfy { specs.compiled[$0.flowName] === $0.flow })
        #expect(runs.map(\.parent) == [nil, 0, 1])
        #expect(runs.map(\.outcome) == ["done", "ok", "refreshed"])
        // The caller: `outcome == "nope"` was evaluated false, then transition 1 taken; the end has no edge.
        #expect(runs[0].namedVisits == ["first:1", "done"])
        #expect(runs[0].visits[0].falseGuards == [0])
        #expect(runs[0].visits.map(\.state) == ["first", "done"].map { specs.compiled["t.caller"]!.index(of: $0)! })
        #expect(runs[1].namedVisits.first == "me:0")
        #expect(runs[2].namedVisits.first == "r:0")

        // The first try and the retry after the refresh were both sent by visit 0 of run 1; the refresh by run 2.
        let entries = log.entries
        #expect(entries.map(\.request.path) == ["/me", "/refresh", "/me"])
        #expect(entries.map(\.run) == [1, 2, 1])
        #expect(entries.map(\.visit) == [0, 0, 0])
    }

    @Test func unreachableAndInvalidInputAreTheirOwnEdges() async throws {
        let yaml = """
            flow: t.edges
            inputs: { code: { type: code } }
            start: ask
            states:
              ask: { input: code, goto: send, invalid: bad }
              send:
                request: { method: POST, path: /x }
                unreachable: offline
                on:
                  - when: status == 200
                    goto: ok
              ok: { end: ok, success: true }
              bad: { end: bad, success: false }
              offline: { end: offline, success: false }
            """
        let specs = try TestSpecs.load(["e.yaml": yaml])
        struct Refusing: HTTPAdapter {
            func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
                throw TransportError(.refused, url: "/x", cause: "refused")
            }
        }
        for (answers, expected) in [(["12 34"], ["ask:1", "bad"]), (["1234"], ["ask:0", "send:1", "offline"])] {
            var (context, _, _) = makeContext(specs, Refusing(), inputs: ["code": answers])
            let recorder = TraceRecorder()
            context.trace = recorder
            _ = await Interpreter(context: context).run(flow: "t.edges")
            #expect(recorder.traces.first?.namedVisits == expected)
            #expect(specs.flows["t.edges"]!.states["send"]!.edges[1].kind == .unreachable)
        }
    }
}
