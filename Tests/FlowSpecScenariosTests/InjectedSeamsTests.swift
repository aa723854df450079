import FlowSpecRuntime
import Synchronization
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecScenarios

/// Durations and input commands go through seams a test can set: durations in reports are then exact, and the rules
/// around commands are checked without starting a shell.
@Suite(.timeLimit(.minutes(5))) struct InjectedSeamsTests {
    static let flow = """
        flow: test.code
        defaults:
          base_url: "http://backend.test"
        inputs:
          email: { type: email }
          code: { type: code, secret: true }
        start: send
        states:
          send:
            request:
              method: POST
              path: /verify
              json: { email: "${inputs.email}", code: "${inputs.code}" }
            on:
              - when: status == 200
                goto: ok
              - else: true
                goto: refused
          ok: { end: ok, success: true }
          refused: { end: refused, success: false }
        """

    static let scenario = """
        scenario: a code from a command
        flow: test.code
        inputs:
          email: qa@example.com
          code: { command: "fetch-code --for $email" }
        exchanges:
          - request: { method: POST, path: /verify, json: { code: "C0DE42" } }
            response: { status: 200 }
        expect: { outcome: ok }
        """

    static func load() throws -> (SpecSet, Scenario) {
        try InlineSuite.load(["flows/code.yaml": flow, "scenarios/code.yaml": scenario])
    }

    @Test func durationsAreMeasuredOnTheInjectedStopwatch() async throws {
        let (specs, scenario) = try Self.load()
        var runner = ScenarioRunner(specs: specs, jobs: 1)
        runner.commandRunner = FixedCommand(value: "C0DE42")
        runner.stopwatch = TickingStopwatch(step: 0.25)
        let report = try #require(await runner.run([scenario]).first)
        #expect(report.status == .passed, "\(report.failures)")
        // One tick between the exchange's start and end; the scenario spans its start, the exchange's two, its end.
        #expect(report.exchanges.map(\.durationSeconds) == [0.25])
        #expect(report.durationSeconds == 0.75)
    }

    @Test func aCommandSeesTheNonSecretInputsAndItsValueIsMasked() async throws {
        let (specs, scenario) = try Self.load()
        var runner = ScenarioRunner(specs: specs, jobs: 1)
        let command = FixedCommand(value: "C0DE42")
        runner.commandRunner = command
        let report = try #require(await runner.run([scenario]).first)
        #expect(report.status == .passed, "\(report.failures)")
        let calls = command.calls
        #expect(calls.map(\.command) == ["fetch-code --for $email"])
        #expect(calls.first?.environment == ["email": "qa@example.com"])
        #expect(!report.exchanges.contains { $0.requestBody?.contains("C0DE42") == true }, "the secret code was shown")
    }

    @Test func aReAskRunsTheCommandAgainAndGivenValuesComeFirst() async throws {
        let command = FixedCommand(value: "777")
        let source = LayeredInputSource(values: ["code": ["111"]], commands: ["code": "next-code"], runner: command)
        let code = InputDecl(
            name: "code", kind: .code, pattern: nil, secret: true, prompt: nil,
            location: SourceLocation(file: "t", line: 1, column: 1))
        #expect(try await source.next(code, flow: "f") == "111")
        #expect(command.calls.isEmpty)
        #expect(try await source.next(code, flow: "f") == "777")
        #expect(try await source.current(code, flow: "f") == "777")
        #expect(try await source.next(code, flow: "f") == "777")
        #expect(command.calls.count == 2)
    }
}

/// Each reading is `step` seconds after the one before.
private final class TickingStopwatch: Stopwatch {
    private let readings = Mutex(0.0)
    let step: Double
    init(step: Double) { self.step = step }
    func seconds() -> Double {
        readings.withLock { now in
            defer { now += step }; return now
        }
    }
}

/// Answers every command with `value`, recording what it was asked.
private final class FixedCommand: CommandRunner {
    struct Call: Sendable { let command: String; let environment: [String: String] }
    private let recorded = Mutex<[Call]>([])
    let value: String
    init(value: String) { self.value = value }
    var calls: [Call] { recorded.withLock { $0 } }
    func run(_ command: String, environment: [String: String], timeoutSeconds: Double) async throws(InputError)
        -> String
    {
        recorded.withLock { $0.append(Call(command: command, environment: environment)) }
        return value
    }
}
