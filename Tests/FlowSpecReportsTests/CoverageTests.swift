import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation
import TestSupport
import Testing

@testable import FlowSpecReports

@Suite(.timeLimit(.minutes(5))) struct CoverageTests {
    static let flowYAML = """
        flow: t.login
        start: login
        states:
          login:
            request: { method: POST, path: /login }
            unreachable: offline
            on:
              - when: status == 200
                goto: ok
              - when: status == 401
                goto: refused
              - else: true
                goto: refused
          ok: { end: ok, success: true }
          refused: { end: refused, success: false }
          offline: { end: offline, success: false }
        """

    /// Loaded once: a run refers to the compiled flow of the program it ran in, and coverage counts the runs of
    /// that program's flows.
    static let specs = try! TestSpecs.load(["t.yaml": CoverageTests.flowYAML])

    static func report(_ visits: [NamedVisit]) -> ScenarioReport {
        ScenarioReport(
            name: "s", file: "s.yaml", tags: [], status: .passed, failures: [], paths: [], lastExchange: nil,
            durationSeconds: 0, infrastructureFailure: false, skipReason: nil,
            runs: [.named(specs.compiled["t.login"]!, visits, outcome: "ok", success: true)])
    }

    /// 200 → ok: the first guard true; nothing else.
    static let happy = report([.init(state: "login", edge: 0), .init(state: "ok")])
    /// 401 → refused: the first guard false, the second true.
    static let refused = report([.init(state: "login", edge: 1, falseGuards: [0]), .init(state: "refused")])

    /// A run of the same flow compiled by another program (another load) is not this program's: not counted.
    @Test func runsOfAnotherProgramAreNotCounted() throws {
        let other = try TestSpecs.load(["t.yaml": CoverageTests.flowYAML])
        let coverage = FlowCoverage(specs: other, reports: [CoverageTests.happy])
        #expect(coverage.flows.first?.states.map(\.hits) == [0, 0, 0, 0])
        #expect(
            FlowCoverage(specs: CoverageTests.specs, reports: [CoverageTests.happy]).flows.first?.states.map(\.hits)
                == [1, 1, 0, 0])
    }

    @Test func countsStatesTransitionsGuardsAndEnds() throws {
        let specs = CoverageTests.specs
        let coverage = FlowCoverage(
            specs: specs, reports: [CoverageTests.happy, CoverageTests.refused, CoverageTests.happy])
        let flow = try #require(coverage.flows.first)
        #expect(flow.states.map { "\($0.name)=\($0.hits)" } == ["login=3", "ok=2", "refused=1", "offline=0"])
        #expect(
            flow.transitions.map {
                "\($0.state)#\($0.index)→\($0.target)=\($0.hits)/\($0.guardFalse.map(String.init) ?? "-")"
            } == [
                "login#0→ok=2/1", "login#1→refused=1/0", "login#2→refused=0/-", "login#3→offline=0/-",
            ])
        #expect(flow.transitionRatio == CoverageRatio(covered: 2, total: 4))
        #expect(flow.stateRatio == CoverageRatio(covered: 3, total: 4))
        // Two guards, each true and false: true, true, false (first); never false (second).
        #expect(flow.guardRatio == CoverageRatio(covered: 3, total: 4))
        #expect(flow.endRatio == CoverageRatio(covered: 2, total: 3))
    }

    @Test func listsWhatWasNeverExercisedByLocation() throws {
        let specs = CoverageTests.specs
        let text = CoverageText.render(FlowCoverage(specs: specs, reports: [CoverageTests.happy]))
        #expect(
            text.hasPrefix(
                "Flow coverage: transitions 25% (1/4) · states 50% (2/4) · guard outcomes 25% (1/4) · end states 33.3% (1/3)"
            ))
        #expect(text.contains("t.yaml:16:3: t.login: state `offline` never reached"))
        #expect(text.contains("t.yaml:10:9: t.login: transition `login` → `refused` (when status == 401) never taken"))
        #expect(text.contains("t.yaml:12:9: t.login: transition `login` → `refused` (else) never taken"))
        #expect(
            text.contains("t.yaml:6:18: t.login: transition `login` → `offline` (unreachable: no response) never taken")
        )
        #expect(text.contains("t.yaml:8:9: t.login: guard `status == 200` in `login` never false"))
        #expect(
            !CoverageText.render(FlowCoverage(specs: specs, reports: [CoverageTests.happy]), showGuards: false)
                .contains("never false"))
    }

    @Test func shardFilesMergeToTheWholeRun() throws {
        let specs = CoverageTests.specs
        let whole = FlowCoverage(specs: specs, reports: [CoverageTests.happy, CoverageTests.refused])
        let shardA = CoverageJSON.render(FlowCoverage(specs: specs, reports: [CoverageTests.happy]))
        let shardB = CoverageJSON.render(FlowCoverage(specs: specs, reports: [CoverageTests.refused]))
        let merged = try CoverageJSON.parse(try CoverageJSON.merge([shardA, shardB]), name: "merged")
        #expect(merged == whole)
    }

    @Test func percentagesNeverRoundUpToComplete() {
        #expect(CoverageRatio(covered: 999, total: 1000).percentText == "99.9%")
        #expect(CoverageRatio(covered: 9999, total: 10000).percentText == "99.9%")
        #expect(CoverageRatio(covered: 0, total: 0).percentText == "100%")
        #expect(CoverageRatio(covered: 1, total: 3).percentText == "33.3%")
    }

    @Test func foreignFilesAreRejectedByName() {
        #expect(throws: CoverageFileError.self) { try CoverageJSON.parse("[1]", name: "a.json") }
        do {
            _ = try CoverageJSON.parse(#"{"schema":"flowspec-report","version":1}"#, name: "report.json")
            Issue.record("a JSON report was read as coverage")
        } catch {
            #expect(error.description.contains("report.json: not a FlowSpec coverage file"))
        }
        do {
            _ = try CoverageJSON.parse(#"{"schema":"flowspec-coverage","version":2,"flows":[]}"#, name: "new.json")
            Issue.record("an unknown version was read")
        } catch {
            #expect(error.description.contains("version 2 is not supported"))
        }
    }
}
