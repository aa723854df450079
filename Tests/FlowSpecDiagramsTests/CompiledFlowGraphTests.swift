import FlowSpecLanguage
import TestSupport
import Testing

@testable import FlowSpecDiagrams

/// The compiled flow read as the diagrams read it: states, edges in drawing order, end states.
@Suite(.timeLimit(.minutes(5))) struct CompiledFlowGraphTests {
    @Test func edgesAreNumberedInInterpreterOrder() throws {
        let yaml = """
            flow: t.edges
            start: ask
            inputs: { code: { type: code } }
            states:
              ask: { input: code, goto: send, invalid: bad }
              send:
                request: { method: POST, path: /x }
                unreachable: offline
                on:
                  - when: status == 200
                    goto: ok
                  - else: true
                    goto: bad
              ok: { end: ok, success: true }
              bad: { end: bad, success: false }
              offline: { end: offline, success: false }
            """
        let specs = try TestSpecs.load(["t.yaml": yaml])
        let graph = CompiledFlow(specs.flows["t.edges"]!)
        #expect(graph.states.map(\.name) == ["ask", "send", "ok", "bad", "offline"])
        #expect(
            graph.allEdges.map { "\($0.state)#\($0.index)→\($0.target) \($0.kind.rawValue) \($0.label)" } == [
                "ask#0→send next ", "ask#1→bad invalidInput invalid",
                "send#0→ok guarded status == 200", "send#1→bad otherwise else",
                "send#2→offline unreachable unreachable",
            ])
        #expect(graph.endStates.map(\.name) == ["ok", "bad", "offline"])
    }
}
