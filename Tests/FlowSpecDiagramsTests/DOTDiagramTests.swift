import FlowSpecLanguage
import TestSupport
import Testing

@testable import FlowSpecDiagrams

@Suite(.timeLimit(.minutes(5))) struct DOTDiagramTests {
    @Test func everyStateKindHasItsShapeAndEndStatesTheirVerdict() throws {
        let expected = #"""
            // flow t.kinds, drawn by flowspec graph
            digraph "t.kinds" {
              rankdir=TB;
              node [fontname="Helvetica", fontsize=11, style=filled];
              edge [fontname="Helvetica", fontsize=10];
              "__start" [shape=point, width=0.2, fillcolor="#24292f", color="#24292f", label=""];
              "ask" [label="ask\ninput code", shape=parallelogram, fillcolor="#fff8c5", fontcolor="#24292f", color="#9a6700"];
              "send" [label="send\nPOST /api/users/${inputs.code}", shape=box, fillcolor="#ddf4ff", fontcolor="#24292f", color="#0969da"];
              "route" [label="route", shape=diamond, fillcolor="#fbefff", fontcolor="#24292f", color="#8250df"];
              "pause" [label="pause\nwait 16m", shape=hexagon, fillcolor="#f6f8fa", fontcolor="#24292f", color="#57606a"];
              "sub" [label="sub\ncall t.other", shape=box, fillcolor="#e0f7f5", fontcolor="#24292f", color="#0f766e", peripheries=2];
              "ok" [label="ok\nauthenticated (success)", shape=doublecircle, fillcolor="#2da44e", fontcolor="#ffffff", color="#116329"];
              "bad" [label="bad\nrejected (failure)", shape=doublecircle, fillcolor="#cf222e", fontcolor="#ffffff", color="#82071e"];
              "offline" [label="offline\noffline (failure)", shape=doublecircle, fillcolor="#cf222e", fontcolor="#ffffff", color="#82071e"];
              "__start" -> "ask";
              "ask" -> "send";
              "ask" -> "bad" [label="invalid", style=dashed];
              "send" -> "route" [label="status == 200 && body.user.role != \"admin\""];
              "send" -> "pause" [label="matches(body.error, \"expired|invalid\")"];
              "send" -> "bad" [label="body[\"a:b\"] == \"x#1;{y}<z>`q`\""];
              "send" -> "bad" [label="else"];
              "send" -> "offline" [label="unreachable", style=dashed];
              "route" -> "sub" [label="len(inputs.code) < 6"];
              "route" -> "bad" [label="else"];
              "pause" -> "send";
              "sub" -> "ok" [label="outcome == \"ok\""];
              "sub" -> "bad" [label="else"];
            }

            """#
        #expect(DOTDiagram.render(try DiagramFixtures.kindsGraph()) == expected)
    }

    @Test(arguments: [
        (#"status == 200 and json.user.role != "admin""#, #""status == 200 and json.user.role != \"admin\"""#),
        (#"json.error =~ "expired|invalid""#, #""json.error =~ \"expired|invalid\"""#),
        (#"matches(x, "\d+\N")"#, #""matches(x, \"\\d+\\N\")""#),
        ("two\nlines", #""two\nlines""#),
        ("a{b}<c>;d:e#f", #""a{b}<c>;d:e#f""#),
    ])
    func quotingKeepsGuardTextLiteral(raw: String, quoted: String) {
        #expect(DOTDiagram.quote(raw) == quoted)
    }

    @Test func aStateNamedLikeTheStartMarkerDoesNotCaptureIt() throws {
        let specs = try TestSpecs.load([
            "s.yaml": """
            flow: t.start
            start: __start
            states:
              __start: { end: done, success: true }
            """
        ])
        let text = DOTDiagram.render(CompiledFlow(specs.flows["t.start"]!))
        #expect(text.contains(#"  "__start_" [shape=point"#))
        #expect(text.contains(#"  "__start_" -> "__start";"#))
    }

    @Test func outputIsDeterministicAndEndsWithANewline() throws {
        let first = DOTDiagram.render(try DiagramFixtures.kindsGraph())
        #expect(first.hasSuffix("}\n"))
        for _ in 0..<5 { #expect(DOTDiagram.render(try DiagramFixtures.kindsGraph()) == first) }
    }
}
