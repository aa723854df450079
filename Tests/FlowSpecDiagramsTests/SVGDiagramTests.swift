import FlowSpecLanguage
import Foundation
import TestSupport
import Testing

@testable import FlowSpecDiagrams

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite(.timeLimit(.minutes(5))) struct SVGDiagramTests {
    static let twoFactor = """
        flow: t.two-factor
        inputs: { code: { type: code } }
        variables: { attempts: 0 }
        start: login
        states:
          login:
            request: { method: POST, path: /api/auth/login }
            unreachable: offline
            on:
              - when: status == 200 && body.requiresTwoFactor == true
                goto: ask
              - when: status == 400 || status == 401
                goto: rejected
          ask: { input: code, goto: verify, invalid: ask }
          verify:
            request: { method: POST, path: /api/auth/2fa/verify }
            on:
              - when: status == 200
                goto: ok
              - when: status == 401 && attempts + 1 >= 3
                goto: rejected
              - when: status == 401
                set: { attempts: attempts + 1 }
                goto: ask
          ok: { end: authenticated, success: true }
          rejected: { end: rejected, success: false }
          offline: { end: offline, success: false }
        """

    static func graph(_ yaml: String = twoFactor, name: String = "t.two-factor") throws -> CompiledFlow {
        let specs = try TestSpecs.load(["t.yaml": yaml])
        return CompiledFlow(try #require(specs.flows[name]))
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The wrong-code-then-right-code path.
    static let retryPath: [(state: String, edge: Int?)] = [
        ("login", 0), ("ask", 0), ("verify", 2), ("ask", 0), ("verify", 0), ("ok", nil),
    ]

    @Test func outputIsWellFormedXML() throws {
        let graph = try Self.graph()
        let svg = SVGDiagram.render(graph, highlight: RunHighlight(visits: Self.retryPath, in: graph, failed: false))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #if canImport(FoundationXML) || os(macOS)
            let document = try XMLDocument(xmlString: svg, options: [])
            #expect(document.rootElement()?.name == "svg")
            let nodes = try document.nodes(
                forXPath: "//*[local-name()='g'][contains(concat(' ', @class, ' '), ' fs-node ')]")
            #expect(nodes.count == graph.states.count)
        #endif
    }

    @Test func onePerStateAndOnePathPerEdge() throws {
        let graph = try Self.graph()
        // Without the stylesheet, so class names found below are on elements, not in CSS rules.
        let svg = SVGDiagram.render(graph, options: .init(embedStylesheet: false))
        #expect(Self.occurrences(of: "<g class=\"fs-node ", in: svg) == graph.states.count)
        #expect(Self.occurrences(of: "<path ", in: svg) == graph.allEdges.count)
        #expect(Self.occurrences(of: "<polygon ", in: svg) == graph.allEdges.count)
        for state in graph.states { #expect(svg.contains("data-state=\"\(state.name)\"")) }
        for edge in graph.allEdges { #expect(svg.contains("data-edge=\"\(edge.state)#\(edge.index)\"")) }
        // Request states say what they send; end states say their outcome.
        #expect(svg.contains(">POST /api/auth/login</text>"))
        #expect(svg.contains(">end authenticated (success)</text>"))
        // One description of a state everywhere (StateSummary): the HTML steps say the same.
        #expect(graph.flow.states["ok"].map { StateSummary($0).line } == "end authenticated (success)")
        #expect(svg.contains(">input code</text>"))
        // No highlight: nothing marked.
        #expect(!svg.contains("fs-visited") && !svg.contains("fs-taken") && !svg.contains("fs-has-path"))
    }

    @Test func highlightMarksVisitedStatesTakenEdgesAndStepNumbers() throws {
        let graph = try Self.graph()
        let svg = SVGDiagram.render(graph, highlight: RunHighlight(visits: Self.retryPath, in: graph, failed: false))
        #expect(svg.contains("class=\"fs-diagram fs-has-path\""))
        for state in ["login", "ask", "verify", "ok"] {
            #expect(try Self.element(svg, "data-state=\"\(state)\"").contains("fs-visited"), "\(state)")
        }
        for state in ["rejected", "offline"] {
            #expect(try !Self.element(svg, "data-state=\"\(state)\"").contains("fs-visited"), "\(state)")
        }
        #expect(try Self.element(svg, "data-state=\"ok\"").contains("fs-end-ok"))
        #expect(try Self.element(svg, "data-edge=\"verify#2\"").contains("fs-taken"))
        #expect(try Self.element(svg, "data-edge=\"login#0\"").contains("fs-taken"))
        #expect(try !Self.element(svg, "data-edge=\"login#1\"").contains("fs-taken"))
        // ask was entered at steps 2 and 4; ask → verify taken twice.
        #expect(svg.contains(">2,4</text>"))
        #expect(svg.contains("class=\"fs-count\"") && svg.contains(">×2</text>"))
        #expect(svg.contains("taken 2 times"))
    }

    @Test func failedRunMarksWhereItStoppedAndFailedEnds() throws {
        let graph = try Self.graph()
        let stopped = SVGDiagram.render(
            graph,
            highlight: RunHighlight(visits: [("login", 0), ("ask", 0), ("verify", nil)], in: graph, failed: true))
        #expect(try Self.element(stopped, "data-state=\"verify\"").contains("fs-failed-at"))
        #expect(stopped.contains("✗ stopped"))
        let rejected = SVGDiagram.render(
            graph, highlight: RunHighlight(visits: [("login", 1), ("rejected", nil)], in: graph, failed: true),
            options: .init(embedStylesheet: false))
        #expect(try Self.element(rejected, "data-state=\"rejected\"").contains("fs-end-fail"))
        #expect(!rejected.contains("fs-failed-at"))
    }

    @Test func guardsAndNamesAreEscaped() throws {
        let yaml = """
            flow: t.escape
            start: check
            states:
              check:
                request: { method: GET, path: "/search?q=a&b=<c>" }
                on:
                  - when: body.x == "<&>\\"" || body.longer_field_name_for_truncation == "tail-text"
                    goto: done
              done: { end: done, success: true }
            """
        let graph = try Self.graph(yaml, name: "t.escape")
        let svg = SVGDiagram.render(graph)
        #expect(!svg.contains("<&>"))
        #expect(svg.contains("body.x == &quot;&lt;&amp;&gt;\\&quot;"))
        #expect(svg.contains("/search?q=a&amp;b=&lt;c&gt;"))
        // The label is cut; the full guard is in the edge's tooltip.
        #expect(svg.contains("…</text>"))
        #expect(svg.contains("&quot;tail-text&quot;</title>"))
        #if canImport(FoundationXML) || os(macOS)
            _ = try XMLDocument(xmlString: svg, options: [])
        #endif
        #expect(Markup.escape("a\u{1}b") == "a\\u0001b")
    }

    /// One palette: a kind's box in the SVG has the fill Mermaid and DOT give it; only end states differ, neutral
    /// under runs (the wait fill) where Mermaid fills them by outcome.
    @Test func boxesTakeTheKindsFillsFromTheOnePalette() {
        let expected: [(String, String)] = [
            ("request", "#ddf4ff"), ("input", "#fff8c5"), ("choice", "#fbefff"), ("call", "#e0f7f5"),
            ("wait", "#f6f8fa"), ("end", "#f6f8fa"),
        ]
        for (kind, fill) in expected {
            #expect(SVGDiagram.stylesheet.contains(".fs-kind-\(kind) .fs-box{fill:\(fill)"), "\(kind)")
        }
        #expect(StatePalette.request.fill == "#ddf4ff" && StatePalette.wait.fill == "#f6f8fa")
    }

    @Test func outputIsDeterministic() throws {
        let graph = try Self.graph()
        let highlight = RunHighlight(visits: Self.retryPath, in: graph, failed: false)
        let first = SVGDiagram.render(graph, highlight: highlight)
        let again = SVGDiagram.render(
            try Self.graph(), highlight: RunHighlight(visits: Self.retryPath, in: graph, failed: false))
        #expect(first == again)
        // The highlight does not move anything: the same flow looks the same in every run.
        let plain = SVGLayout(graph, sizes: [:], labelWidths: [:])
        #expect(plain.boxes == SVGLayout(graph, sizes: [:], labelWidths: [:]).boxes)
    }

    @Test func layoutIsLayeredWithoutOverlaps() throws {
        let graph = try Self.graph()
        let svg = SVGDiagram.render(graph)
        _ = svg
        let layout = Self.layout(graph)
        let boxes = layout.boxes
        // Forward edges go down the page; the start is on top.
        #expect(boxes["login"]!.rank == 0)
        #expect(boxes["login"]!.maxY < boxes["ask"]!.y)
        #expect(boxes["ask"]!.maxY < boxes["verify"]!.y)
        #expect(boxes["verify"]!.maxY < boxes["ok"]!.y)
        Self.expectNoOverlaps(layout)
        // verify → ask goes back up; ask → ask loops on itself.
        let back = layout.routes.first { $0.edge.state == "verify" && $0.edge.index == 2 }!
        #expect(back.isBack && back.points.first!.y > back.points.last!.y)
        #expect(layout.routes.contains { $0.edge.state == "ask" && $0.isSelfLoop })
        #expect(layout.routes.count == graph.allEdges.count)
    }

    @Test func thousandStateFlowLaysOutQuickly() throws {
        var yaml = "flow: t.big\nvariables: { n: 0 }\nstart: s0\nstates:\n"
        for i in 0..<1000 {
            yaml += "  s\(i):\n    choice:\n"
            if i % 10 == 9 { yaml += "      - when: n == \(i)\n        goto: failed\n" }
            if i % 7 == 6 { yaml += "      - when: n == \(i + 1)\n        goto: s\(i - 3)\n" }
            if i % 5 == 0, i + 2 < 1000 { yaml += "      - when: n == \(i + 2)\n        goto: s\(i + 2)\n" }
            yaml += "      - else: true\n        goto: \(i == 999 ? "done" : "s\(i + 1)")\n"
        }
        yaml += "  done: { end: done, success: true }\n  failed: { end: failed, success: false }\n"
        let graph = try Self.graph(yaml, name: "t.big")
        #expect(graph.states.count == 1002)
        let clock = ContinuousClock()
        var svg = ""
        let elapsed = clock.measure {
            svg = SVGDiagram.render(
                graph, highlight: RunHighlight(visits: [("s0", 0), ("s1", 0), ("s2", nil)], in: graph, failed: true))
        }
        // About a second alone; 10 s was exceeded with the whole suite on two cores. A quadratic or worse layout
        // of 1000 states takes minutes, so 60 s still tells them apart.
        #expect(elapsed < .seconds(60), "layout took \(elapsed)")
        #expect(Self.occurrences(of: "<g class=\"fs-node ", in: svg) == 1002)
        #expect(Self.occurrences(of: "<path ", in: svg) == graph.allEdges.count)
        Self.expectNoOverlaps(Self.layout(graph))
    }

    // MARK: Helpers

    static func layout(_ graph: CompiledFlow) -> SVGLayout {
        var sizes: [String: SVGLayout.Size] = [:]
        for state in graph.states { sizes[state.name] = SVGDiagram.Caption(state).size }
        return SVGLayout(
            graph, sizes: sizes,
            labelWidths: Dictionary(uniqueKeysWithValues: graph.allEdges.map { (SVGDiagram.key($0), 60.0) }))
    }

    static func expectNoOverlaps(_ layout: SVGLayout) {
        let byRank = Dictionary(grouping: layout.boxes.values, by: \.rank)
        for (_, row) in byRank {
            let sorted = row.sorted { $0.x < $1.x }
            for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.maxX <= b.x, "boxes overlap in rank \(a.rank)") }
        }
        for box in layout.boxes.values {
            #expect(box.x >= 0 && box.maxX <= layout.width && box.y >= 0 && box.maxY <= layout.height)
        }
    }

    /// The opening tag of the element carrying `attribute`.
    static func element(_ svg: String, _ attribute: String) throws -> String {
        let range = try #require(svg.range(of: attribute))
        let start = svg[..<range.lowerBound].range(of: "<", options: .backwards)!.lowerBound
        return String(svg[start..<range.upperBound])
    }
}
