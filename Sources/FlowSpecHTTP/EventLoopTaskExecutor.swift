import NIOCore

/// Runs Swift tasks on one NIO event loop. A task that prefers it (`withTaskExecutorPreference`) runs its
/// nonisolated code, and the default actors it calls, on the loop's thread, where the HTTP client's channel
/// handlers also run: an awaited response resumes the flow without a thread switch.
final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
