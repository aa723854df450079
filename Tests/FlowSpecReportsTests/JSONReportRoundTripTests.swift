import FlowSpecLanguage
import FlowSpecScenarios
import Foundation
import TestSupport
import Testing

@testable import FlowSpecReports

/// One trace type: the runs a JSON report writes are the `FlowRunTrace`s `TraceFile` reads back, whole — their
/// compiled flows, ids, parents, outcomes, states, edges and false guards.
@Suite(.timeLimit(.minutes(5))) struct JSONReportRoundTripTests {
    static let specs = try! TestSpecs.load([
        "login.yaml": """
        flow: t.login
        start: ask
        inputs: { code: { type: code } }
        states:
          ask: { input: code, goto: send }
          send:
            request: { method: POST, path: /login }
            on:
              - when: status == 401
                goto: ask
              - when: status == 429
                goto: ask
              - else: true
                goto: ok
          ok: { end: ok, success: true }
        """,
        "refresh.yaml": """
        flow: t.refresh
        start: post
        states:
          post:
            request: { method: POST, path: /refresh }
            on:
              - when: status == 200
                goto: done
              - else: true
                goto: done
          done: { end: ok, success: true }
        """,
    ])

    @Test func theRunsAReportWritesAreTheRunsItReadsBack() throws {
        let runs = [
            FlowRunTrace.named(
                id: 0, Self.specs.compiled["t.login"]!, parent: nil,
                [
                    .init(state: "ask", edge: 0), .init(state: "send", edge: 2, falseGuards: [0, 1]),
                    .init(state: "ok"),
                ], outcome: "ok", success: true),
            FlowRunTrace.named(
                id: 1, Self.specs.compiled["t.refresh"]!, parent: 0,
                [.init(state: "post", edge: nil, falseGuards: [0])],
                outcome: "error", success: false),
        ]
        var report = ScenarioReport(
            name: "signs in", file: "scenarios/a.yaml", tags: [], status: .passed, failures: [],
            paths: [], lastExchange: nil, durationSeconds: 0.01, infrastructureFailure: false,
            skipReason: nil, runs: runs)
        report.repetition = 2
        let record = RunRecord(
            reports: [report], specs: Self.specs, startedAt: Date(timeIntervalSince1970: 1_790_000_000),
            durationSeconds: 0.01, toolVersion: "test")
        let read = try TraceFile.parse(Data(JSONReport.render(record).utf8), flows: Self.specs.compiled).get()
        #expect(read.scenarios.map(\.name) == ["signs in"])
        #expect(read.scenarios[0].repetition == 2)
        #expect(read.scenarios[0].runs == runs)
        #expect(read.unmatched.isEmpty)
    }

    @Test func aReportWithoutTheOptionalRunFieldsStillReads() throws {
        let minimal =
            #"{"schema":"flowspec-report","version":1,"scenarios":[{"name":"n","repetition":null,"runs":[{"flow":"t.refresh","visits":[{"state":"post","edge":0},{"state":"done","edge":null}]}]}]}"#
        let run = try #require(
            try TraceFile.parse(Data(minimal.utf8), flows: Self.specs.compiled).get().scenarios.first?.runs.first)
        #expect(
            run
                == FlowRunTrace.named(
                    id: 0, Self.specs.compiled["t.refresh"]!, parent: nil,
                    [.init(state: "post", edge: 0), .init(state: "done")]))
    }

    @Test func aFalseGuardThatIsNotAnIndexIsAContractError() {
        let bad =
            #"{"schema":"flowspec-report","version":1,"scenarios":[{"name":"n","repetition":null,"runs":[{"flow":"f","visits":[{"state":"a","edge":null,"falseGuards":["x"]}]}]}]}"#
        guard case .failure(let problem) = TraceFile.parse(Data(bad.utf8), flows: [:]) else {
            Issue.record("read a false guard of \"x\""); return
        }
        #expect(
            problem.description.contains("scenarios[0].runs[0].visits[0].falseGuards[0] should be a transition index"),
            "\(problem)")
    }
}
