import FlowSpecLanguage

// Over 300 lines on purpose: one SVG document's parts (states, badges, edges, arrowheads, the stylesheet) are
// written together so their classes and coordinates stay consistent; the geometry lives in SVGLayout.

/// A flow drawn as an SVG state diagram, optionally with one run's path highlighted: visited states carry
/// their step numbers, taken edges are thick and counted, the end reached is green or red, and the state
/// where a failed run stopped is marked. No markers and, drawn whole, no ids: many diagrams can sit in one HTML
/// page, inside collapsed sections, and still draw; a report draws each flow once, as a symbol its runs reuse. Styling is by `fs-` classes; the rules are
/// `SVGDiagram.stylesheet`, embedded unless the page carries them once itself.
package enum SVGDiagram {
    package struct Options: Sendable {
        /// Put the stylesheet inside the `<svg>`; a page that shows many diagrams includes it once instead.
        package var embedStylesheet: Bool
        /// Write `xmlns` (needed for a standalone `.svg` file; HTML does not need it).
        package var standalone: Bool

        package init(embedStylesheet: Bool = true, standalone: Bool = true) {
            self.embedStylesheet = embedStylesheet
            self.standalone = standalone
        }
    }

    static let nameFont = 13.0
    static let detailFont = 11.0
    static let labelFont = 10.5
    /// Monospace glyphs are about 0.6em wide; a little more keeps text inside its box in every font.
    static let glyphWidth = 0.62
    static let maxNameChars = 30
    static let maxDetailChars = 34
    static let maxLabelChars = 30

    package static func render(_ flow: CompiledFlow, highlight: RunHighlight = .none, options: Options = Options())
        -> String
    {
        Drawing(flow).svg(highlight: highlight, options: options)
    }

    /// A flow laid out once, to be drawn many times: whole, as a `<symbol>` a page defines once, or as a run's
    /// path drawn over that symbol — so a report with a hundred runs of one flow carries its diagram once.
    package struct Drawing: Sendable {
        package let flow: CompiledFlow
        let captions: [String: Caption]
        let layout: SVGLayout

        package init(_ flow: CompiledFlow) {
            self.flow = flow
            captions = Dictionary(flow.states.map { ($0.name, Caption($0)) }, uniquingKeysWith: { a, _ in a })
            var sizes: [String: SVGLayout.Size] = [:]
            for (name, caption) in captions { sizes[name] = caption.size }
            var labelWidths: [EdgeKey: Double] = [:]
            for edge in flow.allEdges {
                // Room for the (shortened) guard and a "×3" count, whether or not this run shows one, so the
                // same flow lays out the same in every run.
                labelWidths[key(edge)] = textWidth(shorten(edge.label, to: maxLabelChars), font: labelFont) + 22
            }
            layout = SVGLayout(flow, sizes: sizes, labelWidths: labelWidths)
        }

        /// The whole diagram, with the path (if any) highlighted.
        package func svg(highlight: RunHighlight = .none, options: Options = Options()) -> String {
            var out = open(
                classes: highlight.isEmpty ? "fs-diagram" : "fs-diagram fs-has-path", standalone: options.standalone)
            if options.embedStylesheet { out += "<style>\(stylesheet)</style>\n" }
            return out + body(highlight: highlight) + "</svg>\n"
        }

        /// The plain diagram as `<symbol id="…">`, for a page's hidden `<svg><defs>`.
        package func symbol(id: String) -> String {
            "<symbol id=\"\(Markup.escape(id))\" viewBox=\"0 0 \(num(layout.width)) \(num(layout.height))\">\n"
                + body(highlight: RunHighlight.none) + "</symbol>\n"
        }

        /// One run's path over the page's symbol `symbolID`: rings around the states it visited (with their step
        /// numbers, the end it reached, where it stopped) and the edges it took, thick and counted. Only marks —
        /// no text the symbol already has — so each run adds a few hundred bytes to the page.
        package func overlay(highlight: RunHighlight, symbolID: String) -> String {
            var out = open(classes: "fs-diagram fs-has-path", standalone: false)
            out += "<use href=\"#\(Markup.escape(symbolID))\"/>\n"
            guard !flow.states.isEmpty else { return out + "</svg>\n" }
            out += "<g class=\"fs-edges\">\n"
            for route in layout.routes {
                let count = highlight.count(key(route.edge))
                guard count > 0 else { continue }
                let e = route.edge
                out +=
                    "<g class=\"fs-edge fs-edge-\(e.kind.rawValue) fs-taken\" data-edge=\"\(Markup.escape("\(e.state)#\(e.index)"))\">"
                out += arrow(route)
                if count > 1, let at = route.labelAt {
                    out += countLabel(route, at: at, text: shorten(e.label, to: maxLabelChars), count: count)
                }
                out += "</g>\n"
            }
            out += "</g>\n<g class=\"fs-nodes\">\n"
            for name in flow.states.map(\.name) {
                guard let box = layout.boxes[name], let caption = captions[name] else { continue }
                let steps = highlight.steps[name] ?? []
                let ended = highlight.ended?.state == name ? highlight.ended : nil
                guard !steps.isEmpty || ended != nil || highlight.failedAt == name else { continue }
                let classes = nodeClasses(name, caption, visited: !steps.isEmpty, isStart: false, highlight)
                out += "<g class=\"\(classes)\" data-state=\"\(Markup.escape(name))\">"
                out += outline("fs-ring", box, caption)
                out += badges(name, box: box, steps: steps, highlight: highlight)
                out += "</g>\n"
            }
            return out + "</g>\n</svg>\n"
        }

        private func open(classes: String, standalone: Bool) -> String {
            let namespace = standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : ""
            var out =
                "<svg\(namespace) class=\"\(classes)\" viewBox=\"0 0 \(num(layout.width)) \(num(layout.height))\" "
            out +=
                "width=\"\(num(layout.width))\" height=\"\(num(layout.height))\" role=\"img\" aria-label=\"\(Markup.escape("Flow \(flow.name)"))\">\n"
            out +=
                "<title>\(Markup.escape(flow.flow.title.map { "\(flow.name): \($0)" } ?? flow.name))</title>\n"
            return out
        }

        private func body(highlight: RunHighlight) -> String {
            if flow.states.isEmpty {
                return
                    "<text class=\"fs-empty\" x=\"20\" y=\"40\">\(Markup.escape("\(flow.name) has no states"))</text>\n"
            }
            var out = "<g class=\"fs-edges\">\n"
            for route in layout.routes { out += edge(route, highlight: highlight) }
            out += "</g>\n<g class=\"fs-nodes\">\n"
            for name in flow.states.map(\.name) {
                guard let box = layout.boxes[name], let caption = captions[name] else { continue }
                out += node(name, box: box, caption: caption, isStart: name == flow.startName, highlight: highlight)
            }
            return out + "</g>\n"
        }
    }

    // MARK: Nodes

    /// What a state's box says: its name and what kind of step it is.
    struct Caption {
        var name: String
        var detail: String
        var kindClass: String
        var isEnd: Bool
        var title: String

        init(_ state: State) {
            name = state.name
            kindClass = "fs-kind-\(state.kindName)"
            isEnd = state.ending != nil
            detail = state.summary.line
            title = "\(name): \(detail) (\(state.location.file):\(state.location.line))"
        }

        var size: SVGLayout.Size {
            let nameWidth = SVGDiagram.textWidth(
                SVGDiagram.shorten(name, to: SVGDiagram.maxNameChars), font: SVGDiagram.nameFont)
            let detailWidth = SVGDiagram.textWidth(
                SVGDiagram.shorten(detail, to: SVGDiagram.maxDetailChars), font: SVGDiagram.detailFont)
            return SVGLayout.Size(width: max(max(nameWidth, detailWidth) + 24, 96), height: 42)
        }
    }

    private static func node(
        _ name: String, box: SVGLayout.Box, caption: Caption, isStart: Bool, highlight: RunHighlight
    ) -> String {
        let steps = highlight.steps[name] ?? []
        let classes = nodeClasses(name, caption, visited: !steps.isEmpty, isStart: isStart, highlight)

        var title = caption.title
        if !steps.isEmpty {
            title += "\nvisited at step\(steps.count == 1 ? "" : "s") \(steps.map(String.init).joined(separator: ", "))"
        }
        if highlight.failedAt == name { title += "\nthe run stopped here without reaching an end state" }

        var out = "<g class=\"\(classes)\" data-state=\"\(Markup.escape(name))\">"
        out += "<title>\(Markup.escape(title))</title>"
        out += outline("fs-box", box, caption)
        out +=
            "<text class=\"fs-name\" x=\"\(num(box.midX))\" y=\"\(num(box.y + 18))\">\(Markup.escape(shorten(name, to: maxNameChars)))</text>"
        out +=
            "<text class=\"fs-detail\" x=\"\(num(box.midX))\" y=\"\(num(box.y + 33))\">\(Markup.escape(shorten(caption.detail, to: maxDetailChars)))</text>"
        if isStart {
            out += "<text class=\"fs-start-mark\" x=\"\(num(box.x))\" y=\"\(num(box.y - 6))\">▶ start</text>"
        }
        out += badges(name, box: box, steps: steps, highlight: highlight)
        return out + "</g>\n"
    }

    /// A state's classes: its kind, then what the runs did there. The whole diagram and a run's overlay both
    /// write them, so a page's CSS finds the same classes on either.
    private static func nodeClasses(
        _ name: String, _ caption: Caption, visited: Bool, isStart: Bool, _ highlight: RunHighlight
    ) -> String {
        var classes = ["fs-node", caption.kindClass]
        if visited { classes.append("fs-visited") }
        if isStart { classes.append("fs-start") }
        if let ended = highlight.ended, ended.state == name {
            classes.append(ended.success ? "fs-end-ok" : "fs-end-fail")
        }
        if highlight.failedAt == name { classes.append("fs-failed-at") }
        return classes.joined(separator: " ")
    }

    /// A state's box (`fs-box`), or the ring a run's overlay draws on it (`fs-ring`): a pill for an end state.
    private static func outline(_ cssClass: String, _ box: SVGLayout.Box, _ caption: Caption) -> String {
        let radius = caption.isEnd ? box.height / 2 : 8
        return
            "<rect class=\"\(cssClass)\" x=\"\(num(box.x))\" y=\"\(num(box.y))\" width=\"\(num(box.width))\" height=\"\(num(box.height))\" rx=\"\(num(radius))\"/>"
    }

    /// The step numbers at a visited state, and the "stopped" mark where a failed run stopped.
    private static func badges(_ name: String, box: SVGLayout.Box, steps: [Int], highlight: RunHighlight) -> String {
        var out = ""
        if !steps.isEmpty {
            let text = stepsText(steps)
            let width = textWidth(text, font: 10) + 10
            out +=
                "<g class=\"fs-steps\"><rect x=\"\(num(box.maxX - width + 6))\" y=\"\(num(box.y - 8))\" width=\"\(num(width))\" height=\"16\" rx=\"8\"/>"
            out +=
                "<text x=\"\(num(box.maxX - width / 2 + 6))\" y=\"\(num(box.y + 4))\">\(Markup.escape(text))</text></g>"
        }
        if highlight.failedAt == name {
            out +=
                "<g class=\"fs-stop\"><rect x=\"\(num(box.x - 6))\" y=\"\(num(box.maxY - 8))\" width=\"62\" height=\"16\" rx=\"8\"/>"
            out += "<text x=\"\(num(box.x + 25))\" y=\"\(num(box.maxY + 4))\">✗ stopped</text></g>"
        }
        return out
    }

    /// Step numbers for a badge: every one for a few visits, the first ones and a count for many.
    static func stepsText(_ steps: [Int]) -> String {
        if steps.count <= 4 { return steps.map(String.init).joined(separator: ",") }
        return steps.prefix(3).map(String.init).joined(separator: ",") + "…×\(steps.count)"
    }

    // MARK: Edges

    private static func edge(_ route: SVGLayout.Route, highlight: RunHighlight) -> String {
        let e = route.edge
        let count = highlight.count(key(e))
        var classes = ["fs-edge", "fs-edge-\(e.kind.rawValue)"]
        if count > 0 { classes.append("fs-taken") }
        if route.isBack { classes.append("fs-back") }
        var title = "\(e.state) → \(e.target)"
        if !e.label.isEmpty { title += ": \(e.label)" }
        if count > 0 { title += "\ntaken \(count == 1 ? "once" : "\(count) times")" }

        var out =
            "<g class=\"\(classes.joined(separator: " "))\" data-edge=\"\(Markup.escape("\(e.state)#\(e.index)"))\">"
        out += "<title>\(Markup.escape(title))</title>"
        out += arrow(route)
        if let at = route.labelAt {
            let text = shorten(e.label, to: maxLabelChars)
            let anchor = route.labelCentered ? " text-anchor=\"middle\"" : ""
            if !text.isEmpty {
                out +=
                    "<text class=\"fs-label\" x=\"\(num(at.x))\" y=\"\(num(at.y))\"\(anchor)>\(Markup.escape(text))</text>"
            }
            if count > 1 { out += countLabel(route, at: at, text: text, count: count) }
        }
        return out + "</g>\n"
    }

    /// The `×3` after an edge's (shortened) label `text`, for an edge taken more than once.
    private static func countLabel(_ route: SVGLayout.Route, at: SVGLayout.Point, text: String, count: Int) -> String {
        let width = textWidth(text, font: labelFont)
        let offset = route.labelCentered ? width / 2 + 4 : width + (text.isEmpty ? 0 : 4)
        return "<text class=\"fs-count\" x=\"\(num(at.x + offset))\" y=\"\(num(at.y))\">×\(count)</text>"
    }

    /// An edge's line and arrowhead.
    private static func arrow(_ route: SVGLayout.Route) -> String {
        let (d, tip, direction) = pathData(route)
        return "<path d=\"\(d)\"/><polygon points=\"\(arrowhead(tip: tip, direction: direction))\"/>"
    }

    /// The path's `d`, the arrow tip and the direction the arrow points.
    private static func pathData(_ route: SVGLayout.Route) -> (String, SVGLayout.Point, (Double, Double)) {
        var points = route.points
        let arrowLength = 8.0
        if route.isSelfLoop, points.count == 4 {
            let tip = points[3]
            points[3].x += arrowLength - 2
            let d =
                "M\(num(points[0].x)) \(num(points[0].y)) C\(num(points[1].x)) \(num(points[1].y)) \(num(points[2].x)) \(num(points[2].y)) \(num(points[3].x)) \(num(points[3].y))"
            return (d, tip, (-1, 0))
        }
        guard let tip = points.last, points.count >= 2 else { return ("", points.first ?? .init(0, 0), (0, 1)) }
        let previous = points[points.count - 2]
        let direction: (Double, Double) = tip.y >= previous.y ? (0, 1) : (0, -1)
        // The line stops at the arrow's base so a thick stroke does not blunt the tip.
        points[points.count - 1].y -= direction.1 * (arrowLength - 2)
        var d = "M\(num(points[0].x)) \(num(points[0].y))"
        for i in 1..<points.count {
            let a = points[i - 1], b = points[i]
            if abs(a.x - b.x) < 0.5 {
                d += " L\(num(b.x)) \(num(b.y))"
            } else {
                let mid = (a.y + b.y) / 2
                d += " C\(num(a.x)) \(num(mid)) \(num(b.x)) \(num(mid)) \(num(b.x)) \(num(b.y))"
            }
        }
        return (d, tip, direction)
    }

    private static func arrowhead(tip: SVGLayout.Point, direction: (Double, Double)) -> String {
        let length = 8.0, half = 4.5
        let base = SVGLayout.Point(tip.x - direction.0 * length, tip.y - direction.1 * length)
        let left = SVGLayout.Point(base.x - direction.1 * half, base.y + direction.0 * half)
        let right = SVGLayout.Point(base.x + direction.1 * half, base.y - direction.0 * half)
        return [tip, left, right].map { "\(num($0.x)),\(num($0.y))" }.joined(separator: " ")
    }

    static func key(_ edge: Edge) -> EdgeKey { EdgeKey(edge) }

    // MARK: Text

    /// How wide `text` is drawn at `font` pixels: boxes, label room and badges are all measured this way.
    static func textWidth(_ text: String, font: Double) -> Double { Double(text.count) * font * glyphWidth }

    /// Cuts long text with an ellipsis; the full text is in the element's `<title>`.
    static func shorten(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// Coordinates to one decimal, written the same on every machine.
    static func num(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = Int((value * 10).rounded())
        let whole = tenths / 10, fraction = abs(tenths % 10)
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// The diagram's look. Free of `<`, `>` and `&` so it can sit in an SVG or HTML `<style>` as is. The kinds'
    /// fills come from `StatePalette` (the class is `Caption.kindClass`); end boxes keep a heavier outline.
    package static let stylesheet = ([stylesheetHead] + kindRules + [stylesheetTail]).joined(separator: "\n")

    private static let kindRules = DiagramNode.Kind.allCases.map { kind in
        ".fs-kind-\(kind.rawValue) .fs-box{fill:\(StatePalette.fillUnderRuns(kind))\(kind == .end ? ";stroke-width:2" : "")}"
    }

    private static let stylesheetHead = """
        .fs-diagram{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;max-width:100%;height:auto}
        .fs-diagram text{fill:#1f2937}
        .fs-box{fill:#ffffff;stroke:#94a3b8;stroke-width:1.2}
        """

    private static let stylesheetTail = """
        .fs-name{font-size:13px;font-weight:700;text-anchor:middle}
        .fs-detail{font-size:11px;text-anchor:middle;fill:#475569 !important}
        .fs-start-mark{font-size:10px;fill:#64748b !important}
        .fs-edge path{fill:none;stroke:#94a3b8;stroke-width:1.3}
        .fs-edge polygon{fill:#94a3b8}
        .fs-label{font-size:10.5px;fill:#64748b !important}
        .fs-count{font-size:10.5px;font-weight:700;fill:#1d4ed8 !important}
        .fs-ring{fill:none;stroke:#2563eb;stroke-width:2.2}
        .fs-end-ok .fs-ring{fill:#16a34a;fill-opacity:.16;stroke:#16a34a;stroke-width:2.6}
        .fs-end-fail .fs-ring{fill:#dc2626;fill-opacity:.14;stroke:#dc2626;stroke-width:2.6}
        .fs-failed-at .fs-ring{fill:#dc2626;fill-opacity:.12;stroke:#dc2626;stroke-width:3;stroke-dasharray:6 3}
        .fs-has-path .fs-node{opacity:.55}
        .fs-has-path .fs-node.fs-visited{opacity:1}
        .fs-has-path .fs-edge{opacity:.45}
        .fs-has-path .fs-edge.fs-taken{opacity:1}
        .fs-visited .fs-box{stroke:#2563eb;stroke-width:2.2}
        .fs-taken path{stroke:#2563eb;stroke-width:2.6}
        .fs-taken polygon{fill:#2563eb}
        .fs-taken .fs-label{fill:#1d4ed8 !important;font-weight:700}
        .fs-end-ok .fs-box{fill:#dcfce7;stroke:#16a34a;stroke-width:2.6}
        .fs-end-fail .fs-box{fill:#fee2e2;stroke:#dc2626;stroke-width:2.6}
        .fs-failed-at .fs-box{fill:#fee2e2;stroke:#dc2626;stroke-width:3;stroke-dasharray:6 3}
        .fs-steps rect{fill:#2563eb}
        .fs-steps text{fill:#ffffff !important;font-size:10px;font-weight:700;text-anchor:middle}
        .fs-stop rect{fill:#dc2626}
        .fs-stop text{fill:#ffffff !important;font-size:10px;font-weight:700;text-anchor:middle}
        .fs-empty{font-size:12px}
        """
}
