import FlowSpecLanguage
import Testing

/// The compiled flow resolves every edge once, by the numbering `State.edges` defines, so the interpreter's step
/// and the diagram's arrow are the same edge.
@Suite(.timeLimit(.minutes(5))) struct CompiledFlowTests {
    static let yaml = """
        flow: t.compiled
        inputs:
          code: { type: code }
        start: ask
        states:
          ask:
            input: code
            goto: send
            invalid: bad
          send:
            request: { method: POST, path: /verify }
            on:
              - when: status == 200
                goto: ok
              - else: true
                goto: bad
            unreachable: down
          ok: { end: ok, success: true }
          bad: { end: bad, success: false }
          down: { end: down, success: false }
        """

    @Test func edgesLeadWhereTheFlowSays() throws {
        let specs = SpecSet(sources: ["f.yaml": Self.yaml])
        #expect(!specs.diagnostics.hasErrors, "\(specs.diagnostics.items)")
        let compiled = try #require(specs.compiled["t.compiled"])
        let index = { (name: String) in compiled.index(of: name) }
        #expect(compiled.start == index("ask"))
        #expect(compiled.states.map(\.name) == ["ask", "send", "ok", "bad", "down"])
        let ask = try #require(index("ask")), send = try #require(index("send"))
        #expect(compiled.target(of: ask, edge: Edge.nextIndex) == index("send"))
        #expect(compiled.target(of: ask, edge: Edge.invalidInputIndex) == index("bad"))
        #expect(compiled.target(of: send, edge: 0) == index("ok"))
        #expect(compiled.target(of: send, edge: 1) == index("bad"))
        #expect(compiled.target(of: send, edge: Edge.unreachableIndex(transitions: 2)) == index("down"))
        #expect(compiled.target(of: send, edge: 7) == nil)
        // Every edge a diagram draws resolves to the state it names.
        for (i, state) in compiled.states.enumerated() {
            for edge in state.edges {
                #expect(compiled.target(of: i, edge: edge.index).map { compiled.states[$0].name } == edge.target)
            }
        }
        #expect(compiled.input(named: "code")?.kind == .code)
        #expect(compiled.input(named: "nope") == nil)
    }
}
