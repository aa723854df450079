import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// `at_most: { OUTCOME: N }` on a `parallel:` step counts the copies that ended with OUTCOME: how a scenario says
/// "of five concurrent refreshes with one token, at most one succeeds".
@Suite(.timeLimit(.minutes(5))) struct AtMostTests {
    static let claimFlow = """
        flow: test.claim
        defaults:
          base_url: "http://backend.test"
        start: claim
        states:
          claim:
            request: { method: POST, path: /claim }
            on:
              - when: status == 200
                set: { token: body.token }
                goto: accepted
              - else: true
                goto: refused
          accepted: { end: accepted, success: true, outputs: { token: token } }
          refused: { end: refused, success: true }
        """

    static func scenario(accepted: Int, refused: Int, atMost: String) -> String {
        var exchanges = ""
        if accepted > 0 {
            exchanges +=
                "  - request: { method: POST, path: /claim }\n    response: { status: 200 }\n    times: \(accepted)\n    concurrent: true\n"
        }
        if refused > 0 {
            exchanges +=
                "  - request: { method: POST, path: /claim }\n    response: { status: 409 }\n    times: \(refused)\n    concurrent: true\n"
        }
        return """
            scenario: s
            steps:
              - parallel: \(accepted + refused)
                run: test.claim
                expect:
                  at_most: \(atMost)
            exchange_order: any
            exchanges:
            \(exchanges)
            """
    }

    static func decode(_ scenario: String) -> (SpecSet, Scenario?, [String]) {
        InlineSuite.decode(["flows/test/claim.yaml": claimFlow, "scenarios/s.yaml": scenario])
    }

    static func run(_ scenario: String) async throws -> ScenarioReport {
        try await InlineSuite.run(["flows/test/claim.yaml": claimFlow, "scenarios/s.yaml": scenario])
    }

    @Test func moreCopiesWithTheOutcomeThanAllowedFailsTheStep() async throws {
        let report = try await Self.run(Self.scenario(accepted: 3, refused: 0, atMost: "{ accepted: 1 }"))
        #expect(report.status == .failed)
        #expect(report.failures == ["3 of 3 copies ended `accepted`; at most 1 may"], "\(report.failures)")
    }

    @Test func withinTheLimitPasses() async throws {
        let one = try await Self.run(Self.scenario(accepted: 1, refused: 4, atMost: "{ accepted: 1 }"))
        #expect(one.status == .passed, "\(one.failures)")
        let none = try await Self.run(Self.scenario(accepted: 0, refused: 2, atMost: "{ accepted: 0, refused: 2 }"))
        #expect(none.status == .passed, "\(none.failures)")
        let tooManyRefused = try await Self.run(Self.scenario(accepted: 0, refused: 2, atMost: "{ refused: 1 }"))
        #expect(
            tooManyRefused.failures == ["2 of 2 copies ended `refused`; at most 1 may"], "\(tooManyRefused.failures)")
    }

    @Test func atMostOutsideAParallelStepIsALocatedError() {
        let oneRun = Self.decode("scenario: s\nflow: test.claim\nexpect: { at_most: { accepted: 1 } }\nexchanges: []\n")
            .2
        #expect(
            oneRun.contains {
                $0.contains("scenarios/s.yaml:3:9: error: `at_most` counts the copies of a `parallel:` step")
            }, "\(oneRun)")
        let step = Self.decode(
            "scenario: s\nsteps:\n  - run: test.claim\n    expect: { at_most: { accepted: 1 } }\nexchanges: []\n"
        ).2
        #expect(step.contains { $0.contains("a step without `parallel:` has one run") }, "\(step)")
        let notANumber = Self.decode(Self.scenario(accepted: 2, refused: 0, atMost: "{ accepted: many }")).2
        #expect(
            notANumber.contains {
                $0.contains("`at_most: { accepted: N }` takes a number of copies from 0 to 1000, found `many`")
            }, "\(notANumber)")
    }

    @Test func sameOutputsComparesTheCopiesWithoutShowingTheValues() async throws {
        func scenario(_ tokens: [String]) -> String {
            let exchanges = tokens.map {
                "  - request: { method: POST, path: /claim }\n    response: { status: 200, json: { token: \($0) } }\n"
            }.joined()
            return
                "scenario: s\nsteps:\n  - parallel: \(tokens.count)\n    run: test.claim\n    expect:\n      same_outputs: [token]\nexchange_order: any\nexchanges:\n\(exchanges)"
        }
        let same = try await Self.run(scenario(["t-one", "t-one", "t-one"]))
        #expect(same.status == .passed, "\(same.failures)")
        let different = try await Self.run(scenario(["t-one", "t-two", "t-one"]))
        #expect(
            different.failures == ["3 copies ended with output `token`, with 2 different values; all must be the same"],
            "\(different.failures)")
        let misplaced = Self.decode("scenario: s\nflow: test.claim\nexpect: { same_outputs: [token] }\nexchanges: []\n")
            .2
        #expect(
            misplaced.contains { $0.contains("`same_outputs` compares the copies of a `parallel:` step") },
            "\(misplaced)")
    }
}
