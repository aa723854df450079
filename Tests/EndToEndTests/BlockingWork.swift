import FlowSpecRuntime
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
