import Foundation
import HostileBackend
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test servers' accept loop: a stopped server must never answer a later test's connections, even when the
/// kernel hands its listener's descriptor number to that test's socket.
// Three minutes: the whole suite on two cores has kept tests from being scheduled for over a minute.
@Suite(.timeLimit(.minutes(3))) struct AcceptLoopTests {
    final class Counter: Sendable {
        private let value = Mutex(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// The window a CI run fell into: the server is stopped while its thread is busy with a connection, and a new
    /// listener opens before that thread comes back to `accept`.
    @Test func aStoppedLoopNeverAcceptsOnADescriptorHandedOutAgain() async throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let oldAccepted = Counter()
        let old = try AcceptLoop { client in
            oldAccepted.increment()
            entered.signal()
            release.wait()
            close(client)
        }
        let first = try LoopbackListener.connect(to: old.port)
        defer { close(first) }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        old.stop()

        let freshAccepted = Counter()
        let fresh = try AcceptLoop { client in
            freshAccepted.increment()
            close(client)
        }
        defer { fresh.stop() }
        release.signal()
        for _ in 0..<3 { close(try LoopbackListener.connect(to: fresh.port)) }

        let deadline = ContinuousClock.now + .seconds(10)
        while freshAccepted.count < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(freshAccepted.count == 3)
        #expect(oldAccepted.count == 1)
    }

    @Test func aStoppedLoopRefusesNewConnections() async throws {
        let loop = try AcceptLoop { close($0) }
        let port = loop.port
        loop.stop()
        // The accepting thread closes the listener soon after; until then a connection may still be queued, never served.
        let deadline = ContinuousClock.now + .seconds(10)
        var refused = false
        while !refused, ContinuousClock.now < deadline {
            if let fd = try? LoopbackListener.connect(to: port) {
                close(fd)
                try await Task.sleep(for: .milliseconds(10))
            } else {
                refused = true
            }
        }
        #expect(refused)
    }
}
