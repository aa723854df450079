import Foundation
import Testing
import FlowSpecLanguage
import FlowSpecScenarios
@testable import FlowSpecReports

/// One trace type: the runs a JSON report writes are the `FlowRunTrace`s `TraceFile` reads back, whole — ids,
/// parents, outcomes, edges and false guards.
@Suite(.timeLimit(.minutes(5))) struct JSONReportRoundTripTests {
    @Test func theRunsAReportWritesAreTheRunsItReadsBack() throws {
        let runs = [
            FlowRunTrace(id: 0, flow: "t.login", parent: nil, visits: [
                .init(state: "ask", edge: 0), .init(state: "send", edge: 2, falseGuards: [0, 1]), .init(state: "ok"),
            ], outcome: "ok", success: true),
            FlowRunTrace(id: 1, flow: "t.refresh", parent: 0, visits: [.init(state: "post", edge: nil, falseGuards: [3])],
                         outcome: "error", success: false),
        ]
        var report = ScenarioReport(name: "signs in", file: "scenarios/a.yaml", tags: [], status: .passed, failures: [],
                                    paths: [], lastExchange: nil, durationSeconds: 0.01, infrastructureFailure: false,
                                    skipReason: nil, runs: runs)
        report.repetition = 2
        let record = RunRecord(reports: [report], specs: SpecSet(), startedAt: Date(timeIntervalSince1970: 1_790_000_000),
                               durationSeconds: 0.01, toolVersion: "test")
        let read = try TraceFile.parse(Data(JSONReport.render(record).utf8)).get()
        #expect(read.scenarios.map(\.name) == ["signs in"])
        #expect(read.scenarios[0].repetition == 2)
        #expect(read.scenarios[0].runs == runs)
    }

    @Test func aReportWithoutTheOptionalRunFieldsStillReads() throws {
        let minimal = #"{"schema":"flowspec-report","version":1,"scenarios":[{"name":"n","repetition":null,"runs":[{"flow":"f","visits":[{"state":"a","edge":0},{"state":"b","edge":null}]}]}]}"#
        let run = try #require(try TraceFile.parse(Data(minimal.utf8)).get().scenarios.first?.runs.first)
        #expect(run == FlowRunTrace(id: 0, flow: "f", parent: nil, visits: [.init(state: "a", edge: 0), .init(state: "b")]))
    }

    @Test func aFalseGuardThatIsNotAnIndexIsAContractError() {
        let bad = #"{"schema":"flowspec-report","version":1,"scenarios":[{"name":"n","repetition":null,"runs":[{"flow":"f","visits":[{"state":"a","edge":null,"falseGuards":["x"]}]}]}]}"#
        guard case .failure(let problem) = TraceFile.parse(Data(bad.utf8)) else { Issue.record("read a false guard of \"x\""); return }
        #expect(problem.description.contains("scenarios[0].runs[0].visits[0].falseGuards[0] should be a transition index"), "\(problem)")
    }
}
