import Foundation
import Synchronization

/// Runs Swift tasks on one thread of its own, where the live adapter may block on a plain-HTTP socket.
///
/// Why a thread of our own: a request's wait for its answer then costs one `poll` on this thread instead of a hop
/// to an event loop and back (docs/performance.md, sixth part). Blocking is safe here because nothing else runs on
/// this thread: only tasks that ask for it (`withTaskExecutorPreference`), which the runner gives to live scenarios
/// one at a time. Tasks meant to run at the same time (`parallel:` copies, probe bursts) prefer Swift's global
/// executor instead, so they never queue behind each other's blocked requests.
final class DedicatedThreadExecutor: TaskExecutor {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var next = 0
        var stopped = false
    }

    private let queue = Mutex(Queue())
    private let ready = DispatchSemaphore(value: 0)
    /// The worker's `pthread_t`, published once it runs; 0 before.
    private let worker = Atomic<UInt>(0)

    init(name: String) {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            // For profiles (`perf report --sort comm`): set from the thread itself, Foundation names the kernel's thread too.
            Thread.current.name = name
            worker.store(UInt(pthread_self()), ordering: .releasing)
            started.signal()
            runJobs()
        }
        // As deep as a main thread's: flows and expressions recurse.
        thread.stackSize = 8 << 20
        thread.start()
        started.wait()
    }

    /// True on the executor's own thread: the one place a blocking request cannot stall anyone else.
    var isCurrent: Bool { worker.load(ordering: .acquiring) == UInt(pthread_self()) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.jobs.append(job) }
        ready.signal()
    }

    /// Lets the thread end once the jobs already queued have run.
    func stop() {
        queue.withLock { $0.stopped = true }
        ready.signal()
    }

    private func runJobs() {
        while true {
            ready.wait()
            let job: UnownedJob? = queue.withLock { q in
                guard q.next < q.jobs.count else { return nil }
                let job = q.jobs[q.next]
                q.next += 1
                // Reclaim the consumed front now and then rather than shifting the array at every job.
                if q.next == q.jobs.count { q.jobs.removeAll(keepingCapacity: true); q.next = 0 }
                return job
            }
            guard let job else {
                if queue.withLock({ $0.stopped }) { return }
                continue
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
