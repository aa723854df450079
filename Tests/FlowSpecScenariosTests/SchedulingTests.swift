import FlowSpecRuntime
import Synchronization
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecScenarios

/// The scheduler's promises, watched through its seams: `jobs` scenarios are played at once and never more, each
/// scenario is played once and reported in the order given, and `onFinish` is called once per scenario, one call at
/// a time (progress output relies on it).
@Suite(.timeLimit(.minutes(5))) struct SchedulingTests {
    /// Copies of the injected-seams scenario (its code comes from a command), named 0, 1, 2…
    static func scenarios(_ count: Int) throws -> (SpecSet, [Scenario]) {
        let (specs, scenario) = try InjectedSeamsTests.load()
        return (
            specs,
            (0..<count).map { index in
                var copy = scenario
                copy.name = "\(index)"
                return copy
            }
        )
    }

    @Test(arguments: [1, 3]) func asManyScenariosRunAtOnceAsThereAreJobs(jobs: Int) async throws {
        let (specs, scenarios) = try Self.scenarios(9)
        var runner = ScenarioRunner(specs: specs, jobs: jobs)
        let command = CrowdedCommand(waitFor: jobs)
        runner.commandRunner = command
        let reports = await runner.run(scenarios)
        #expect(reports.map(\.status) == Array(repeating: .passed, count: 9), "\(reports.flatMap(\.failures))")
        #expect(reports.map(\.name) == scenarios.map(\.name))
        #expect(command.calls == 9)
        #expect(command.mostAtOnce == jobs)
    }

    @Test func onFinishIsCalledOncePerScenarioOneCallAtATime() async throws {
        let (specs, scenarios) = try Self.scenarios(12)
        var runner = ScenarioRunner(specs: specs, jobs: 4)
        runner.commandRunner = CrowdedCommand(waitFor: 1)
        let calls = Mutex((current: 0, most: 0, indices: [Int]()))
        let reports = await runner.run(scenarios) { index, _ in
            calls.withLock {
                $0.current += 1; $0.most = max($0.most, $0.current); $0.indices.append(index)
            }
            // Long enough for another worker's scenario to end meanwhile.
            try? await Task.sleep(for: .milliseconds(3))
            calls.withLock { $0.current -= 1 }
        }
        #expect(reports.count == 12)
        let seen = calls.withLock { $0 }
        #expect(seen.most == 1)
        #expect(seen.indices.sorted() == Array(0..<12))
    }
}

/// Answers "C0DE42" once `waitFor` commands are running together (or after a second), recording the most that ever
/// ran at once: a scheduler that plays fewer scenarios at once than its jobs, or more, shows here.
private final class CrowdedCommand: CommandRunner {
    private let state = Mutex((running: 0, most: 0, calls: 0))
    let waitFor: Int
    init(waitFor: Int) { self.waitFor = waitFor }
    var mostAtOnce: Int { state.withLock { $0.most } }
    var calls: Int { state.withLock { $0.calls } }

    func run(_ command: String, environment: [String: String], timeoutSeconds: Double) async throws(InputError)
        -> String
    {
        state.withLock {
            $0.running += 1; $0.most = max($0.most, $0.running); $0.calls += 1
        }
        let deadline = ContinuousClock.now + .seconds(1)
        while state.withLock({ $0.running < waitFor }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        try? await Task.sleep(for: .milliseconds(2))
        state.withLock { $0.running -= 1 }
        return "C0DE42"
    }
}
