import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback listener and the thread that accepts on it, handing each connection to `handle` on that thread.
///
/// Only the accepting thread ever closes the listener, after its last `accept`. Closing it from `stop()` instead lets
/// the kernel hand the same descriptor number to the next test's socket while this thread is about to accept again:
/// the old server then answers the new test's connections (a CI run saw a proxy test get another server's 400).
package final class AcceptLoop: @unchecked Sendable {
    package let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private var closed = false

    /// `handle` owns the connection's descriptor: it closes it, or hands it to a thread of its own that does.
    package init(_ handle: @escaping @Sendable (Int32) -> Void) throws {
        (listener, port) = try LoopbackListener.open()
        let listener = self.listener
        Thread.detachNewThread { [self] in
            defer {
                lock.withLock {
                    closed = true
                    close(listener)
                }
            }
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED, !isStopped { continue }
                    return
                }
                if isStopped {
                    close(client)
                    return
                }
                handle(client)
            }
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Stops accepting: shutting a listening socket down wakes a blocked `accept` (and fails every later one) on Linux.
    /// Under the lock, so the descriptor is certainly still ours and not a number the kernel has handed out again.
    package func stop() {
        lock.withLock {
            stopped = true
            if !closed { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }
}
