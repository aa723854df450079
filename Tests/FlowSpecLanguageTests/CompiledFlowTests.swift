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

    static let linked: [String: String] = [
        "s.yaml":
            "session: t.s\nnamespace: s\nheaders: { Authorization: \"Bearer ${store.t}\" }\nrefresh: { flow: t.refresh, when: status == 401 }\n",
        "refresh.yaml": """
        flow: t.refresh
        start: send
        states:
          send:
            request: { method: POST, path: /refresh }
            on:
              - else: true
                goto: done
          done: { end: done, success: true }
        """,
        "main.yaml": """
        flow: t.main
        session: t.s
        start: me
        states:
          me:
            request: { method: GET, path: /me }
            on:
              - else: true
                goto: open
          open:
            request: { method: GET, path: /open }
            session: none
            on:
              - else: true
                goto: sub
          sub:
            call: t.refresh
            on:
              - else: true
                goto: done
          done: { end: done, success: true }
        """,
    ]

    /// Calls and sessions are resolved when the program is made: the interpreter follows indices into the
    /// program's lists, never a name.
    @Test func callsAndSessionsAreResolvedToThePrograms() throws {
        let specs = SpecSet(sources: Self.linked)
        #expect(!specs.diagnostics.hasErrors, "\(specs.diagnostics.items)")
        #expect(specs.compiledFlows.map(\.name) == ["t.main", "t.refresh"])
        #expect(specs.linkedSessions.map(\.name) == ["t.s"])
        let main = try #require(specs.compiled["t.main"])
        let me = try #require(main.index(of: "me")), open = try #require(main.index(of: "open"))
        let sub = try #require(main.index(of: "sub")), done = try #require(main.index(of: "done"))
        #expect(main.callees[sub].map { specs.compiledFlows[$0] } === specs.compiled["t.refresh"])
        #expect(main.callees[me] == nil && main.callees[done] == nil)
        #expect(main.sessions[me] == 0, "the flow's session")
        #expect(main.sessions[open] == nil, "`session: none` opts out")
        #expect(main.sessions[sub] == nil)
        #expect(specs.linkedSessions[0].refreshFlow === specs.compiled["t.refresh"])

        // A session swapped in (a probe switching refresh off) is linked again; the flows stay as compiled.
        var session = try #require(specs.sessions["t.s"])
        session.refresh = nil
        let replaced = specs.replacing(session)
        #expect(replaced.linkedSessions[0].refreshFlow == nil)
        #expect(replaced.linkedSessions[0].definition.refresh == nil)
        #expect(replaced.compiled["t.main"] === main)

        // A flow compiled on its own (a diagram of one file) links nowhere.
        let alone = CompiledFlow(main.flow)
        #expect(alone.callees.allSatisfy { $0 == nil } && alone.sessions.allSatisfy { $0 == nil })
    }
}
