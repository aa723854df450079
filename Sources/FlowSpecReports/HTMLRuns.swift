import FlowSpecDiagrams
import FlowSpecLanguage
import FlowSpecScenarios

/// A scenario's flow runs: each with its state diagram (path highlighted) and its steps, the requests each
/// step sent listed under it. Runs a `call` or a session refresh started are nested under their caller.
struct HTMLRuns {
    let record: RunRecord
    let report: ScenarioReport
    let diagrams: HTMLDiagrams
    /// Each run's exchanges with their position in the scenario, which orders them against other runs'.
    let exchangesByRun: [Int: [(position: Int, record: ExchangeRecord)]]
    let children: [Int: [FlowRunTrace]]
    /// The exchange opened by default: the last one of a failed scenario, where the trouble usually is.
    let spotlight: (run: Int?, index: Int)?

    init(record: RunRecord, report: ScenarioReport, diagrams: HTMLDiagrams) {
        self.record = record
        self.report = report
        self.diagrams = diagrams
        let ids = Set(report.runs.map(\.id))
        exchangesByRun = Dictionary(
            grouping: report.exchanges.enumerated().filter { $0.element.run.map(ids.contains) ?? false },
            by: { $0.element.run! }
        ).mapValues { $0.map { ($0.offset, $0.element) } }
        var children: [Int: [FlowRunTrace]] = [:]
        for run in report.runs {
            if let parent = run.parent, ids.contains(parent), parent != run.id {
                children[parent, default: []].append(run)
            }
        }
        self.children = children
        if report.status == .failed, let last = report.exchanges.last {
            spotlight = (last.run, (exchangesByRun[last.run ?? -1]?.count ?? 0) - 1)
        } else {
            spotlight = nil
        }
    }

    func render() -> String {
        let ids = Set(report.runs.map(\.id))
        let topLevel = report.runs.filter { run in run.parent.map { !ids.contains($0) || $0 == run.id } ?? true }
        var html = ""
        if topLevel.isEmpty, !report.paths.isEmpty {
            // No traces (an older runner, or a hand-made report): the paths are still worth showing.
            html += "<section class=\"runs\"><h3>Paths</h3>\n"
            for path in report.paths {
                html +=
                    "<p class=\"path\"><code>\(Markup.escape(path.flow))</code>: \(Markup.escape(path.path.joined(separator: " → ")))</p>\n"
            }
            html += "</section>\n"
        } else if !topLevel.isEmpty {
            html += "<section class=\"runs\">\n"
            for run in topLevel { html += render(run, depth: 0) }
            html += "</section>\n"
        }
        let orphans = report.exchanges.filter { $0.run.map { !ids.contains($0) } ?? true }
        if !orphans.isEmpty {
            html += "<section class=\"orphans\"><h3>Requests outside any flow run</h3>\n"
            for (i, exchange) in orphans.enumerated() {
                html += HTMLExchange.render(
                    exchange, open: spotlight?.run == nil && i == orphans.count - 1 && report.status == .failed)
            }
            html += "</section>\n"
        }
        return html
    }

    private func render(_ run: FlowRunTrace, depth: Int) -> String {
        let flow = run.flow.flow
        let outcomeClass = run.outcome == nil ? "running" : run.success ? "ok" : "fail"
        var html =
            depth == 0
            ? "<section class=\"run \(outcomeClass)\">\n<h3>"
            : "<details class=\"run sub \(outcomeClass)\" open>\n<summary>"
        html +=
            depth == 0
            ? "Run \(run.id + 1): "
            : "Started by run \(run.parent.map { $0 + 1 } ?? 0) (call or session refresh) · run \(run.id + 1): "
        html += "<code>\(Markup.escape(run.flowName))</code>"
        html +=
            " <span class=\"outcome \(outcomeClass)\">→ \(Markup.escape(run.outcome ?? "did not finish"))\(run.success ? " ✓" : " ✗")</span>"
        if let title = flow.title { html += " <span class=\"flow-title\">\(Markup.escape(title))</span>" }
        html += depth == 0 ? "</h3>\n" : "</summary>\n"

        html +=
            "<p class=\"path\">"
            + run.visits.enumerated().map { offset, visit in
                "<span class=\"step-no\">\(offset + 1)</span>\(Markup.escape(run.state(visit).name))"
            }.joined(separator: " <span class=\"arrow\">→</span> ") + "</p>\n"

        html += "<div class=\"diagram\">\(diagrams.diagram(of: run))</div>\n"
        html += steps(run, depth: depth)
        html += depth == 0 ? "</section>\n" : "</details>\n"
        return html
    }

    /// Each visit with the edge it left by, the requests it sent and the runs it started.
    private func steps(_ run: FlowRunTrace, depth: Int) -> String {
        let (sentBy, leftover) = assignExchanges(run)
        let (startedBy, unplaced) = placeChildren(of: run, sentBy: sentBy)
        var sent = 0
        var html = "<ol class=\"steps\">\n"
        for (offset, visit) in run.visits.enumerated() {
            let state = run.state(visit)
            html +=
                "<li><span class=\"step-no\">\(offset + 1)</span> <code class=\"state\">\(Markup.escape(state.name))</code>"
            html += " <span class=\"kind\">\(Markup.escape(state.summary.line))</span>"
            if let edge = run.edge(visit) {
                html += " <span class=\"via\">→ <code>\(Markup.escape(edge.target))</code>"
                if !edge.label.isEmpty { html += " via <code class=\"guard\">\(Markup.escape(edge.label))</code>" }
                html += "</span>"
            } else if visit.edge == nil, offset == run.visits.count - 1, state.ending == nil {
                html += " <span class=\"stopped\">✗ stopped here</span>"
            }
            let falseGuards = visit.falseGuards.compactMap { run.flow.edge(of: visit.state, number: $0)?.label }
            if !falseGuards.isEmpty {
                html +=
                    "<div class=\"false-guards\">false first: "
                    + falseGuards.map { "<code>\(Markup.escape($0))</code>" }.joined(separator: ", ") + "</div>"
            }
            // Requests and the runs they started (a refresh between a 401 and its retry) in the order they happened.
            var items: [(position: Int, html: String)] = []
            for exchange in sentBy[offset] {
                items.append(
                    (
                        exchange.position,
                        HTMLExchange.render(exchange.record, open: isSpotlight(run: run.id, index: sent))
                    ))
                sent += 1
            }
            for child in startedBy[offset] ?? [] {
                items.append((firstPosition(child) ?? Int.max, render(child, depth: depth + 1)))
            }
            if !items.isEmpty {
                html +=
                    "\n<div class=\"exchanges\">\n" + items.sorted { $0.position < $1.position }.map(\.html).joined()
                    + "</div>"
            }
            html += "</li>\n"
        }
        html += "</ol>\n"
        if !leftover.isEmpty {
            html += "<div class=\"exchanges other\"><p class=\"note\">Other requests of this run:</p>\n"
            for exchange in leftover {
                html += HTMLExchange.render(exchange.record, open: isSpotlight(run: run.id, index: sent))
                sent += 1
            }
            html += "</div>\n"
        }
        for child in unplaced { html += render(child, depth: depth + 1) }
        return html
    }

    /// Which visit sent which request: each record names its visit; records without one (reports from other
    /// tools) are left for the "other requests" list.
    private func assignExchanges(_ run: FlowRunTrace) -> (
        [[(position: Int, record: ExchangeRecord)]], [(position: Int, record: ExchangeRecord)]
    ) {
        var sentBy = [[(position: Int, record: ExchangeRecord)]](repeating: [], count: run.visits.count)
        var leftover: [(position: Int, record: ExchangeRecord)] = []
        for exchange in exchangesByRun[run.id] ?? [] {
            if let visit = exchange.record.visit, sentBy.indices.contains(visit) {
                sentBy[visit].append(exchange)
            } else {
                leftover.append(exchange)
            }
        }
        return (sentBy, leftover)
    }

    /// Under which visit each run this one started goes: a `call` state of that flow, or (a session refresh)
    /// the visit whose request came just before the refresh's first request. The rest go after the steps.
    private func placeChildren(
        of run: FlowRunTrace,
        sentBy: [[(position: Int, record: ExchangeRecord)]]
    ) -> ([Int: [FlowRunTrace]], [FlowRunTrace]) {
        var placed: [Int: [FlowRunTrace]] = [:]
        var unplaced: [FlowRunTrace] = []
        var usedCalls = Set<Int>()
        for child in children[run.id] ?? [] {
            let call = run.visits.indices.first { offset in
                guard !usedCalls.contains(offset), case .call(let c) = run.state(run.visits[offset]).kind else {
                    return false
                }
                return c.flow.name == child.flowName
            }
            if let call {
                usedCalls.insert(call)
                placed[call, default: []].append(child)
            } else if let first = firstPosition(child),
                let visit = sentBy.indices.last(where: { sentBy[$0].contains { $0.position < first } })
            {
                placed[visit, default: []].append(child)
            } else {
                unplaced.append(child)
            }
        }
        return (placed, unplaced)
    }

    private func firstPosition(_ run: FlowRunTrace) -> Int? { exchangesByRun[run.id]?.first?.position }

    private func isSpotlight(run: Int, index: Int) -> Bool { spotlight?.run == run && spotlight?.index == index }
}
