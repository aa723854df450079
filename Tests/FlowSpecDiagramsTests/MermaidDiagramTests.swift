import FlowSpecLanguage
import TestSupport
import Testing

@testable import FlowSpecDiagrams

@Suite(.timeLimit(.minutes(5))) struct MermaidDiagramTests {
    @Test func everyStateKindHasItsShapeAndEveryEdgeItsLabel() throws {
        let expected = """
            %% flow t.kinds, drawn by flowspec graph
            flowchart TD
                start(("start"))
                s_ask[/"ask<br/>input code"/]
                s_send["send<br/>POST /api/users/$#123;inputs.code#125;"]
                s_route{"route"}
                s_pause{{"pause<br/>wait 16m"}}
                s_sub[["sub<br/>call t.other"]]
                s_ok(["ok<br/>authenticated (success)"])
                s_bad(["bad<br/>rejected (failure)"])
                s_offline(["offline<br/>offline (failure)"])
                start --> s_ask
                s_ask --> s_send
                s_ask -.->|"invalid"| s_bad
                s_send -->|"status == 200 #amp;#amp; body.user.role != #quot;admin#quot;"| s_route
                s_send -->|"matches(body.error, #quot;expired#124;invalid#quot;)"| s_pause
                s_send -->|"body[#quot;a#58;b#quot;] == #quot;x#35;1#59;#123;y#125;#lt;z#gt;#96;q#96;#quot;"| s_bad
                s_send -->|"else"| s_bad
                s_send -.->|"unreachable"| s_offline
                s_route -->|"len(inputs.code) #lt; 6"| s_sub
                s_route -->|"else"| s_bad
                s_pause --> s_send
                s_sub -->|"outcome == #quot;ok#quot;"| s_ok
                s_sub -->|"else"| s_bad
                classDef flowStart fill:#24292f,stroke:#24292f,color:#ffffff
                class start flowStart
                classDef request fill:#ddf4ff,stroke:#0969da,color:#24292f
                class s_send request
                classDef input fill:#fff8c5,stroke:#9a6700,color:#24292f
                class s_ask input
                classDef choice fill:#fbefff,stroke:#8250df,color:#24292f
                class s_route choice
                classDef subflow fill:#e0f7f5,stroke:#0f766e,color:#24292f
                class s_sub subflow
                classDef wait fill:#f6f8fa,stroke:#57606a,color:#24292f
                class s_pause wait
                classDef success fill:#2da44e,stroke:#116329,color:#ffffff
                class s_ok success
                classDef failure fill:#cf222e,stroke:#82071e,color:#ffffff
                class s_bad,s_offline failure

            """
        #expect(MermaidDiagram.render(try DiagramFixtures.kindsGraph()) == expected)
    }

    @Test(arguments: [
        (#"status == 200 and json.user.role != "admin""#, "status == 200 and json.user.role != #quot;admin#quot;"),
        (#"json.error =~ "expired|invalid""#, "json.error =~ #quot;expired#124;invalid#quot;"),
        ("a: b; c # d", "a#58; b#59; c #35; d"),
        ("{x} <y> & `z`", "#123;x#125; #lt;y#gt; #amp; #96;z#96;"),
        ("status == 200\n  && ok", "status == 200 #amp;#amp; ok"),
    ])
    func escapingLeavesNothingMermaidReadsAsSyntax(raw: String, escaped: String) {
        let result = MermaidDiagram.escape(raw)
        #expect(result == escaped)
        // Nothing that could end a quoted label, an edge label or a statement survives, and every `#` starts an entity.
        for forbidden in ["\"", "|", ";", "<", ">", "{", "}", ":", "`", "\n"] {
            let withoutEntities = result.replacing(/#[a-z0-9]+;/, with: "")
            #expect(!withoutEntities.contains(forbidden), "`\(forbidden)` left in \(result)")
        }
    }

    @Test func everyLabelIsQuotedSoGuardTextCannotEscapeIt() throws {
        let text = MermaidDiagram.render(try DiagramFixtures.kindsGraph())
        let edgeLines = text.split(separator: "\n").filter { $0.contains("-->") || $0.contains("-.->") }
        #expect(edgeLines.count == 13)
        for line in edgeLines where line.contains("|") {
            // Exactly two pipes (the label delimiters), each beside a quote.
            #expect(line.filter { $0 == "|" }.count == 2, "\(line)")
            #expect(line.contains("|\"") && line.contains("\"|"), "\(line)")
            let inside = line.split(separator: "|")[1].dropFirst().dropLast()
            #expect(!inside.contains("\""), "\(line)")
        }
    }

    @Test func stateNamesThatAreMermaidKeywordsOrClashGetSafeUniqueIds() throws {
        let specs = try TestSpecs.load([
            "k.yaml": """
            flow: t.keywords
            start: end
            states:
              end:
                choice:
                  - when: true
                    goto: a-b
                  - else: true
                    goto: a_b
              a-b: { end: x, success: true }
              a_b: { end: y, success: false }
            """
        ])
        let text = MermaidDiagram.render(CompiledFlow(specs.flows["t.keywords"]!))
        #expect(text.contains("    s_end{\"end\"}\n"))
        #expect(text.contains("    s_a_b([\"a-b<br/>x (success)\"])\n"))
        #expect(text.contains("    s_a_b_2([\"a_b<br/>y (failure)\"])\n"))
        #expect(text.contains("    start --> s_end\n"))
        #expect(text.contains("    s_end -->|\"else\"| s_a_b_2\n"))
    }

    /// Mermaid's flowchart lexer takes the first rule that matches, so a word that begins like one of its
    /// keywords (`call ` starts a click callback, `end` closes a subgraph, a leading `v` is the "down" arrow,
    /// digits are numbers) must never be an id or class name.
    @Test func idsAndClassNamesStayClearOfMermaidKeywords() throws {
        let text = MermaidDiagram.render(
            try DiagramFixtures.kindsGraph(),
            highlight: RunHighlight(visits: [("ask", nil)], endStates: [:], failed: false))
        var words: [Substring] = []
        for line in text.split(separator: "\n").map({ $0.trimmingPrefix("    ") }) {
            let parts = line.split(separator: " ")
            if parts.first == "classDef" { words.append(parts[1]) }
            if parts.first == "class" { words += parts[1].split(separator: ",") + [parts[2]] }
            if parts.count >= 3, parts[1].hasPrefix("-") { words += [parts[0], parts.last!] }
        }
        #expect(words.count > 20)
        let keywords = [
            "call", "end", "style", "class", "click", "default", "subgraph", "graph", "flowchart", "linkstyle",
            "interpolate", "href", "direction",
        ]
        for word in words {
            #expect(!keywords.contains { word.lowercased().hasPrefix($0) }, "\(word)")
            #expect(word.first.map { $0.isLetter && $0 != "v" && $0 != "o" && $0 != "x" } == true, "\(word)")
        }
    }

    @Test func outputIsDeterministicAndEndsWithANewline() throws {
        let graph = try DiagramFixtures.kindsGraph()
        let first = MermaidDiagram.render(graph)
        #expect(first.hasSuffix("\n") && !first.hasSuffix("\n\n"))
        for _ in 0..<5 { #expect(MermaidDiagram.render(try DiagramFixtures.kindsGraph()) == first) }
    }
}
