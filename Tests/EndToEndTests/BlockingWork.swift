import Foundation

/// Blocking work (waiting for a child process, reading a pipe to its end) on a thread of its own, never on one of
/// Swift's cooperative threads, which are as few as the cores.
enum BlockingWork {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

/// Reads a pipe to its end on its own thread; `wait()` returns everything read.
final class PipeReader: @unchecked Sendable {
    // Unchecked: `data` is written once, by the reading thread before it signals `done`, and read only after `done`.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
