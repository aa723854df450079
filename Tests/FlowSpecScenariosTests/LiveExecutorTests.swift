import Foundation
import Synchronization
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// A live scenario runs on the executor its backend prefers (the live client's event loop); a scripted one
/// never does, since its backend is in memory.
@Suite(.timeLimit(.minutes(5))) struct LiveExecutorTests {
    @Test func liveScenariosRunOnTheBackendsPreferredExecutorAndScriptedOnesDoNot() async throws {
        let executor = CountingExecutor()
        let backend = PreferringBackend(executor: executor)
        let (specs, live) = try FailFastAndTimeoutTests.load([("live", FailFastAndTimeoutTests.live("on the loop"))])
        let reports = await ScenarioRunner(specs: specs, jobs: 1, live: backend).run(live)
        #expect(reports.map(\.status) == [.passed], "\(reports.map(\.failures))")
        #expect(executor.jobs > 0, "the live scenario never ran on its backend's executor")

        let before = executor.jobs
        let (_, scripted) = try FailFastAndTimeoutTests.load([
            ("plain", FailFastAndTimeoutTests.scripted("plain", passes: true))
        ])
        #expect(await ScenarioRunner(specs: specs, jobs: 1, live: backend).run(scripted).map(\.status) == [.passed])
        #expect(executor.jobs == before, "a scripted scenario ran on the live backend's executor")
    }
}

/// Runs jobs on a serial queue of its own, counting them.
private final class CountingExecutor: TaskExecutor {
    private let count = Mutex(0)
    private let queue = DispatchQueue(label: "counting-executor")

    var jobs: Int { count.withLock { $0 } }

    func enqueue(_ job: consuming ExecutorJob) {
        count.withLock { $0 += 1 }
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A live backend answering 200 at once that prefers `executor`.
private struct PreferringBackend: HTTPAdapter {
    let executor: CountingExecutor
    var preferredExecutor: (any TaskExecutor)? { executor }
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse { HTTPResponse(status: 200) }
}
