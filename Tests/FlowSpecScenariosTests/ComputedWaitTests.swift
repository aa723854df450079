import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// A scenario `wait:` computed from `now` and `vars` when the step runs, e.g. `30 - now % 30` to the next TOTP window:
/// on the virtual clock in scripted runs (deterministic), capped by `--allow-wait` in live ones.
@Suite(.timeLimit(.minutes(5))) struct ComputedWaitTests {
    /// Sends the code and ends with the clock's reading.
    static let verifyFlow = """
        flow: t.verify
        defaults: { base_url: "http://backend.test" }
        inputs:
          code: { type: code, secret: true }
        start: verify
        states:
          verify:
            request: { method: POST, path: /verify, json: { code: "${inputs.code}" } }
            on:
              - when: status == 200
                goto: verified
          verified: { end: verified, success: true, outputs: { at: now } }
        """

    /// Two TOTP logins from 1700000017: the code of that window is 367665, the next window (from 1700000040) 870960 —
    /// RFC 6238 for the secret JBSWY3DPEHPK3PXP. A backend accepts each code once, so the second login must wait.
    static func totpScenario(wait: String) -> String {
        """
        scenario: two TOTP logins in a row
        clock: 1700000017
        vars: { totp_secret: JBSWY3DPEHPK3PXP, cooldown: 5 }
        exchanges:
          - request: { method: POST, path: /verify, json: { code: "367665" } }
            response: { status: 200 }
          - request: { method: POST, path: /verify, json: { code: "870960" } }
            response: { status: 200 }
        steps:
          - run: t.verify
            inputs: { code: "${totp(vars.totp_secret)}" }
            expect: { outcome: verified, outputs: { at: 1700000017 } }
          - wait: \(wait)
          - run: t.verify
            inputs: { code: "${totp(vars.totp_secret)}" }
            expect: { outcome: verified, outputs: { at: 1700000040 } }
        """
    }

    static func decode(_ scenario: String) -> (SpecSet, Scenario?, [String]) {
        InlineSuite.decode(["flows/t/verify.yaml": verifyFlow, "scenarios/s.yaml": scenario])
    }

    static func run(_ scenario: String) async throws -> ScenarioReport {
        try await InlineSuite.run(["flows/t/verify.yaml": verifyFlow, "scenarios/s.yaml": scenario])
    }

    @Test func aWaitToTheNextWindowMovesTheVirtualClockThereAndTheCodeChanges() async throws {
        let report = try await Self.run(Self.totpScenario(wait: "30 - now % 30"))
        #expect(report.status == .passed, "\(report.failures)")
    }

    @Test func withoutTheComputedWaitTheSecondCodeIsTheFirstAgain() async throws {
        // The same scenario waiting a constant 5 s stays in the first window: the second login sends 367665 again.
        let report = try await Self.run(Self.totpScenario(wait: "vars.cooldown"))
        #expect(report.status == .failed)
        #expect(
            report.failures.contains {
                $0.contains("no scripted exchange matches") || $0.contains("unexpected request")
            }, "\(report.failures)")
    }

    @Test func constantWaitsStillLoadAndRun() async throws {
        for wait in ["23s", "23", "0.5m - 7"] {
            let report = try await Self.run(Self.totpScenario(wait: wait))
            #expect(report.status == .passed, "\(wait): \(report.failures)")
        }
    }

    @Test(arguments: [
        ("inputs.code", "a scenario `wait` can read `now` and `vars` only; found `inputs`"),
        ("store.expires_at - now", "a scenario `wait` can read `now` and `vars` only; found `store`"),
        ("cooldown", "a scenario `wait` can read `now` and `vars` only; `cooldown` is not one of them"),
        ("'\"soon\"'", "`wait` needs a duration such as `16m`, `30s` or `1h`, or a number of seconds, not a string"),
        ("now > 5", "not a boolean"),
        ("-5s", "`wait` needs a duration such as `16m`, `30s` or `1h`, got -5"),
        ("30 - now %", "s.yaml:13:"),
    ])
    func aWaitThatCannotBeADurationIsALocatedLoadError(wait: String, message: String) {
        let (_, _, errors) = Self.decode(Self.totpScenario(wait: wait))
        #expect(errors.contains { $0.contains(message) && $0.hasPrefix("scenarios/s.yaml:13:") }, "\(wait): \(errors)")
    }

    @Test(arguments: [("-3", "got -3"), ("\"x\"", "got \"x\"")])
    func aWaitThatComesOutNegativeOrNotANumberFailsTheScenarioAtTheExpression(cooldown: String, got: String)
        async throws
    {
        let scenario = Self.totpScenario(wait: "vars.cooldown").replacingOccurrences(
            of: "cooldown: 5", with: "cooldown: \(cooldown)")
        let report = try await Self.run(scenario)
        #expect(report.status == .failed)
        #expect(
            report.failures.contains {
                $0.contains(
                    "step 2: scenarios/s.yaml:13:11: `wait: vars.cooldown` needs a non-negative number of seconds, \(got)"
                )
            },
            "\(report.failures)")
    }

    @Test func aWaitReadingAMissingVariableSaysWhereToGiveIt() async throws {
        let report = try await Self.run(Self.totpScenario(wait: "vars.pause"))
        #expect(report.status == .failed)
        #expect(
            report.failures.contains { $0.contains("step 2: scenarios/s.yaml:13:16: `wait`:") && $0.contains("pause") },
            "\(report.failures)")
    }

    @Test func aLiveComputedWaitLongerThanAllowedSkipsTheScenarioNamingTheWait() async throws {
        let scenario = """
            scenario: s
            live: true
            vars: { cooldown: 1200, totp_secret: JBSWY3DPEHPK3PXP }
            steps:
              - run: t.verify
                inputs: { code: "${totp(vars.totp_secret)}" }
                expect: { outcome: verified }
              - wait: vars.cooldown - now % 30
              - run: t.verify
                inputs: { code: "${totp(vars.totp_secret)}" }
                expect: { outcome: verified }
            """
        let (specs, loaded, errors) = Self.decode(scenario)
        #expect(errors.isEmpty, "\(errors)")
        var runner = ScenarioRunner(specs: specs, jobs: 1, live: answering(200))
        runner.liveClock = VirtualClock(start: 1_700_000_017)
        let report = await runner.run(try #require(loaded))
        #expect(report.status == .skipped, "\(report.failures)")
        #expect(report.skipReason?.contains("step 2 would wait 19 min 53 s") == true, "\(report.skipReason ?? "")")
        runner.allowWait = 30 * 60
        let allowed = await runner.run(try #require(loaded))
        #expect(allowed.status == .passed, "\(allowed.failures) \(allowed.skipReason ?? "")")
    }
}
