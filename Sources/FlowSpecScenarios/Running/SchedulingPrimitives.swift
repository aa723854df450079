import Synchronization

/// The small actors and queue the scheduler coordinates scenarios with.

/// Hands out the indices 0, 1, … `count - 1`, each once, to whichever worker asks first.
final class IndexQueue: Sendable {
    private let next = Mutex(0)
    private let count: Int

    init(count: Int) { self.count = count }

    func take() -> Int? {
        next.withLock { next in
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }
}

/// The first of several tasks to finish wins; later finishers are ignored.
actor TimeoutRace<T: Sendable> {
    private var value: T?
    private var waiter: CheckedContinuation<T, Never>?

    func finish(_ result: T) {
        guard value == nil else { return }
        value = result
        waiter?.resume(returning: result)
        waiter = nil
    }

    func result() async -> T {
        if let value { return value }
        return await withCheckedContinuation { waiter = $0 }
    }
}

/// Raised by the first failed scenario under `--fail-fast`; scenarios not yet started check it.
actor FailureSignal {
    private(set) var raised = false
    func raise() { raised = true }
}

/// Runs closures one at a time, in arrival order.
actor SerialGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func serially<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        if busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        let result = await body()
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        return result
    }
}
