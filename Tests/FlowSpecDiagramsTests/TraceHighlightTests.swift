import FlowSpecLanguage
import FlowSpecReports
import Foundation
import TestSupport
import Testing

@testable import FlowSpecDiagrams

@Suite(.timeLimit(.minutes(5))) struct TraceHighlightTests {
    /// A report in the flowspec-report v1 contract: "happy" signs in first time; "retry" waits once, then is
    /// refused by the sub-flow. "happy" also records the sub-flow's own run, which must not count for t.kinds.
    static let report = """
        {
          "schema": "flowspec-report", "version": 1,
          "tool": {"name": "flowspec", "version": "0.1.0"},
          "startedAt": "2026-11-21T10:00:00Z", "durationSeconds": 0.75,
          "summary": {"total": 2, "passed": 1, "failed": 1, "skipped": 0},
          "scenarios": [
            {
              "name": "happy", "file": "scenarios/happy.yaml", "tags": [], "status": "passed",
              "repetition": null, "durationSeconds": 0.001, "infrastructureFailure": false,
              "failures": [], "skipReason": null,
              "runs": [
                {"id": 0, "flow": "t.kinds", "parent": null, "outcome": "authenticated", "success": true,
                 "visits": [{"state": "ask", "edge": 0, "falseGuards": []}, {"state": "send", "edge": 0, "falseGuards": []},
                            {"state": "route", "edge": 0, "falseGuards": []}, {"state": "sub", "edge": 0, "falseGuards": []},
                            {"state": "ok", "edge": null, "falseGuards": []}]},
                {"id": 1, "flow": "t.other", "parent": 0, "outcome": "ok", "success": true,
                 "visits": [{"state": "done", "edge": null, "falseGuards": []}]}
              ],
              "exchanges": [
                {"run": 0, "flow": "t.kinds", "state": "send", "method": "POST", "url": "/api/users/•••", "durationSeconds": 0.0004,
                 "request": {"headers": [], "body": null}, "response": {"status": 200, "headers": [], "body": "{}"}, "failure": null}
              ]
            },
            {
              "name": "retry", "file": "scenarios/retry.yaml", "tags": ["smoke"], "status": "failed",
              "repetition": null, "durationSeconds": 0.002, "infrastructureFailure": false,
              "failures": ["expected outcome authenticated, got rejected"], "skipReason": null,
              "runs": [
                {"id": 0, "flow": "t.kinds", "parent": null, "outcome": "rejected", "success": false,
                 "visits": [{"state": "ask", "edge": 0, "falseGuards": []}, {"state": "send", "edge": 1, "falseGuards": [0]},
                            {"state": "pause", "edge": 0, "falseGuards": []}, {"state": "send", "edge": 0, "falseGuards": []},
                            {"state": "route", "edge": 0, "falseGuards": []}, {"state": "sub", "edge": 1, "falseGuards": [0]},
                            {"state": "bad", "edge": null, "falseGuards": []}]}
              ],
              "exchanges": []
            }
          ]
        }
        """

    static func trace(_ text: String = report) throws -> TraceFile {
        try TraceFile.parse(Data(text.utf8), flows: try DiagramFixtures.kindsSpecs().compiled).get()
    }

    @Test func readsScenariosRunsAndVisitsFromTheContract() throws {
        let file = try Self.trace()
        #expect(file.scenarioNames == ["happy", "retry"])
        #expect(file.scenarios[0].runs.map(\.flowName) == ["t.kinds", "t.other"])
        #expect(file.scenarios[0].runs[0].namedVisits == ["ask:0", "send:0", "route:0", "sub:0", "ok"])
        let kinds = file.scenarios[0].runs[0].flow
        #expect(file.scenarios[0].runs[0].visits.last == FlowRunTrace.Visit(state: kinds.index(of: "ok")!, edge: nil))
        #expect(
            file.scenarios[1].runs[0].visits[1]
                == FlowRunTrace.Visit(state: kinds.index(of: "send")!, edge: 1, falseGuards: [0]))
        #expect(file.unmatched.isEmpty)
        #expect(file.runs(of: "t.kinds").count == 2)
        #expect(file.runs(of: "t.kinds", scenario: "retry").map { $0.visits.count } == [7])
        #expect(file.runs(of: "t.other").count == 1)
        #expect(file.runs(of: "t.nothing").isEmpty)
    }

    @Test func mergesEveryRunOfTheFlowIntoVisitedStatesAndEdgeCounts() throws {
        let graph = try DiagramFixtures.kindsGraph()
        let highlight = RunHighlight(runs: try Self.trace().runs(of: "t.kinds"))
        #expect(graph.flow.name == "t.kinds")
        #expect(highlight.visitedStates == ["ask", "send", "route", "sub", "ok", "pause", "bad"])
        typealias Key = EdgeKey
        #expect(
            highlight.edgeCounts == [
                Key(state: "ask", index: 0): 2, Key(state: "send", index: 0): 2, Key(state: "send", index: 1): 1,
                Key(state: "pause", index: 0): 1, Key(state: "route", index: 0): 2,
                Key(state: "sub", index: 0): 1, Key(state: "sub", index: 1): 1,
            ])
        // Several runs merged: no single end to mark.
        #expect(highlight.ended == nil && highlight.failedAt == nil)
    }

    @Test func mermaidStylesVisitedStatesAndTakenLinksAndCountsThem() throws {
        let graph = try DiagramFixtures.kindsGraph()
        let text = MermaidDiagram.render(graph, highlight: RunHighlight(runs: try Self.trace().runs(of: "t.kinds")))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("    s_ask --> s_send") == false)
        #expect(lines.contains("    s_ask -->|\"×2\"| s_send"))
        #expect(
            lines.contains(
                "    s_send -->|\"status == 200 #amp;#amp; body.user.role != #quot;admin#quot; ×2\"| s_route"))
        #expect(lines.contains("    s_send -->|\"matches(body.error, #quot;expired#124;invalid#quot;) ×1\"| s_pause"))
        #expect(lines.contains("    s_send -->|\"else\"| s_bad"))
        #expect(lines.contains("    s_sub -->|\"else ×1\"| s_bad"))
        #expect(lines.contains("    classDef traced stroke:#1f6feb,stroke-width:3px"))
        #expect(lines.contains("    class s_ask,s_send,s_route,s_pause,s_sub,s_ok,s_bad traced"))
        // Link 0 is the start arrow; links 1… are CompiledFlow.allEdges in order.
        #expect(lines.last == "    linkStyle 0,1,3,4,8,10,11,12 stroke:#1f6feb,stroke-width:3px")
    }

    @Test func scenarioFilterHighlightsOnlyThatScenario() throws {
        let graph = try DiagramFixtures.kindsGraph()
        let text = MermaidDiagram.render(
            graph, highlight: RunHighlight(runs: try Self.trace().runs(of: "t.kinds", scenario: "happy")))
        #expect(
            text.hasSuffix(
                "    class s_ask,s_send,s_route,s_sub,s_ok traced\n    linkStyle 0,1,3,8,11 stroke:#1f6feb,stroke-width:3px\n"
            ))
        #expect(text.contains("    s_sub -->|\"outcome == #quot;ok#quot; ×1\"| s_ok\n"))
    }

    @Test func dotColoursTakenEdgesAndVisitedStates() throws {
        let graph = try DiagramFixtures.kindsGraph()
        let text = DOTDiagram.render(graph, highlight: RunHighlight(runs: try Self.trace().runs(of: "t.kinds")))
        let taken = ##"color="#1f6feb", fontcolor="#1f6feb", penwidth=3"##
        #expect(text.contains("  \"__start\" -> \"ask\" [\(taken)];\n"))
        #expect(text.contains("  \"ask\" -> \"send\" [label=\"×2\", \(taken)];\n"))
        #expect(
            text.contains(
                "  \"send\" -> \"pause\" [label=\"matches(body.error, \\\"expired|invalid\\\") ×1\", \(taken)];\n"))
        #expect(text.contains("  \"send\" -> \"offline\" [label=\"unreachable\", style=dashed];\n"))
        #expect(
            text.contains(
                ##"  "ok" [label="ok\nauthenticated (success)", shape=doublecircle, fillcolor="#2da44e", fontcolor="#ffffff", color="#1f6feb", penwidth=3];"##
            ))
        #expect(
            text.contains(
                ##"  "offline" [label="offline\noffline (failure)", shape=doublecircle, fillcolor="#cf222e", fontcolor="#ffffff", color="#82071e"];"##
            ))
    }

    @Test func noRunsMeansThePlainDiagram() throws {
        let graph = try DiagramFixtures.kindsGraph()
        let highlight = RunHighlight(runs: try Self.trace().runs(of: "t.nothing"))
        #expect(highlight.isEmpty)
        #expect(MermaidDiagram.render(graph, highlight: highlight) == MermaidDiagram.render(graph))
        #expect(DOTDiagram.render(graph, highlight: highlight) == DOTDiagram.render(graph))
    }

    /// A report written for another version of the flow: what the flow can place is read and drawn, the rest is
    /// described (for `graph --trace`'s warning), never a failure of the whole file.
    @Test func visitsTheFlowNoLongerHasAreReportedNotDrawn() throws {
        let text = Self.report.replacingOccurrences(
            of: #"{"state": "route", "edge": 0, "falseGuards": []}, {"state": "sub", "edge": 0"#,
            with: #"{"state": "gone", "edge": 0, "falseGuards": []}, {"state": "sub", "edge": 9"#)
        #expect(text != Self.report)
        let file = try Self.trace(text)
        let run = try #require(file.runs(of: "t.kinds", scenario: "happy").first)
        #expect(run.namedVisits == ["ask:0", "send:0", "sub", "ok"])
        #expect(
            file.unmatched["t.kinds"] == ["state `gone` is not in the flow", "state `sub` has no edge 9 (it has 2)"])
        let highlight = RunHighlight(runs: [run])
        #expect(highlight.visitedStates == ["ask", "send", "sub", "ok"])
        #expect(highlight.edgeCounts == [EdgeKey(state: "ask", index: 0): 1, EdgeKey(state: "send", index: 0): 1])
    }

    /// Runs of flows that are not loaded are left out; the rest of the report is read.
    @Test func runsOfFlowsNotLoadedAreLeftOut() throws {
        let onlyKinds = try DiagramFixtures.kindsSpecs().compiled.filter { $0.key == "t.kinds" }
        let file = try TraceFile.parse(Data(Self.report.utf8), flows: onlyKinds).get()
        #expect(file.scenarios[0].runs.map(\.flowName) == ["t.kinds"])
        #expect(file.runs(of: "t.kinds").count == 2)
    }

    /// One run marks where it ended (the diagram colours the end) or where it stopped.
    @Test func oneRunMarksItsEnd() throws {
        let file = try Self.trace()
        let happy = RunHighlight(runs: file.runs(of: "t.kinds", scenario: "happy"))
        #expect(happy.ended == RunHighlight.Ending(state: "ok", success: true) && happy.failedAt == nil)
        #expect(happy.steps["send"] == [2])
        let retry = RunHighlight(runs: file.runs(of: "t.kinds", scenario: "retry"))
        #expect(retry.ended == RunHighlight.Ending(state: "bad", success: false))
        #expect(retry.steps["send"] == [2, 4])
    }

    @Test(arguments: [
        ("{ not json", "not valid JSON"),
        ("[1, 2]", "not a FlowSpec JSON report"),
        (#"{"schema": "junit", "version": 1, "scenarios": []}"#, "not a FlowSpec JSON report"),
        (#"{"schema": "flowspec-report", "version": 2, "scenarios": []}"#, "report version 2 is not supported"),
        (#"{"schema": "flowspec-report", "scenarios": []}"#, "report version null is not supported"),
        (#"{"schema": "flowspec-report", "version": 1}"#, "scenarios is missing"),
        (#"{"schema": "flowspec-report", "version": 1, "scenarios": {}}"#, "scenarios should be a list, found object"),
        (#"{"schema": "flowspec-report", "version": 1, "scenarios": [{"name": "a"}]}"#, "scenarios[0].runs is missing"),
        (
            #"{"schema": "flowspec-report", "version": 1, "scenarios": [{"name": 3, "runs": []}]}"#,
            "scenarios[0].name should be a string, found number"
        ),
        (
            #"{"schema": "flowspec-report", "version": 1, "scenarios": [{"name": "a", "runs": [{"flow": "f", "visits": [{"state": "s", "edge": "0"}]}]}]}"#,
            "scenarios[0].runs[0].visits[0].edge should be an edge index (a whole number ≥ 0) or null, found string"
        ),
        (
            #"{"schema": "flowspec-report", "version": 1, "scenarios": [{"name": "a", "runs": [{"flow": "f", "visits": [{"edge": 0}]}]}]}"#,
            "scenarios[0].runs[0].visits[0].state is missing"
        ),
        (
            #"{"schema": "flowspec-report", "version": 1, "scenarios": [{"name": "a", "runs": [{"flow": "f", "visits": [{"state": "s", "edge": -1}]}]}]}"#,
            "visits[0].edge should be an edge index"
        ),
        (
            #"{"schema": "flowspec-report", "version": 1, "scenarios": [{"name": "a", "repetition": 1.5, "runs": []}]}"#,
            "scenarios[0].repetition should be a whole number or null, found number"
        ),
    ])
    func badReportsAreRejectedWithTheReason(text: String, reason: String) {
        switch TraceFile.parse(Data(text.utf8), flows: [:]) {
        case .success: Issue.record("accepted: \(text)")
        case .failure(let problem): #expect(problem.description.contains(reason), "\(problem.description)")
        }
    }
}
