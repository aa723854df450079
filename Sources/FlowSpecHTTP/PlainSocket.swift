import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// A non-blocking TCP socket used in a blocking way: every call waits with `poll` on the calling thread until it is
/// done, `deadline` passes, or another thread calls `interrupt()`. Errors are the ones NIO and AsyncHTTPClient throw
/// for the same events (`IOError`, `HTTPClientError.connectTimeout`…), so `TransportFailure` words them the same way
/// whichever client met them.
final class PlainSocket: Sendable {
    /// A point in time and the error for reaching it: a connect timeout is not a request timeout.
    struct Deadline {
        var instant: ContinuousClock.Instant
        var error: any Error
    }

    /// The host name did not resolve: what `getaddrinfo` said.
    struct UnknownHost: Error, CustomStringConvertible {
        var host: String
        var reason: String
        var description: String { TransportFailure.unresolved(host, reason) }
    }

    private struct State {
        var open = true
        var interrupted = false
    }

    private let fd: Int32
    private let state = Mutex(State())

    private init(fd: Int32) { self.fd = fd }

    deinit { close() }

    /// Connects to the first address of `host` that accepts, trying each in the order the resolver gives them.
    static func connect(host: String, port: Int, by deadline: Deadline) throws -> PlainSocket {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw UnknownHost(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var firstError: (any Error)?
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            do {
                return try connect(address.pointee, by: deadline)
            } catch let error as IOError {
                firstError = firstError ?? error
            }
        }
        throw firstError ?? IOError(errnoCode: ECONNREFUSED, reason: "connect")
    }

    private static func connect(_ address: addrinfo, by deadline: Deadline) throws -> PlainSocket {
        let fd = socket(
            address.ai_family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw IOError(errnoCode: errno, reason: "socket") }
        let socket = PlainSocket(fd: fd)
        var on: Int32 = 1
        // Requests are written whole, in one call: nothing to gain from Nagle's delay, as NIO's default.
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { throw IOError(errnoCode: errno, reason: "connect") }
            try socket.wait(for: Int16(POLLOUT), by: deadline)
            var problem: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &length)
            if problem != 0 { throw IOError(errnoCode: problem, reason: "connect") }
        }
        return socket
    }

    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer, by deadline: Deadline) throws {
        var offset = 0
        while offset < bytes.count {
            let written = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if written >= 0 {
                offset += written
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), by: deadline)
            } else if errno == EPIPE || errno == ECONNRESET {
                // The server closed before taking the whole request: worded as AsyncHTTPClient words it.
                throw HTTPClientError.remoteConnectionClosed
            } else if errno != EINTR {
                throw IOError(errnoCode: errno, reason: "write")
            }
        }
    }

    /// Waits for bytes and reads what has arrived into `buffer`; 0 means the server closed the connection.
    func read(into buffer: UnsafeMutableRawBufferPointer, by deadline: Deadline) throws -> Int {
        while true {
            // A response is never there the instant it is asked for: wait first, then read.
            try wait(for: Int16(POLLIN), by: deadline)
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                throw IOError(errnoCode: errno, reason: "read")
            }
        }
    }

    /// An idle kept-alive connection can take another request: the server has neither closed it nor sent anything
    /// unasked. (A server that closes idle connections after a few seconds is common; reusing one would fail a request
    /// that never reached it.)
    var isIdleAndOpen: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0 && state.withLock { $0.open && !$0.interrupted }
    }

    /// Wakes a thread waiting in any call above, which then throws `CancellationError`. Safe from any thread.
    func interrupt() {
        state.withLock {
            guard $0.open else { return }
            $0.interrupted = true
            // Shutting down, unlike closing, wakes a `poll` on the descriptor and cannot hand it to another socket.
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    func close() {
        state.withLock {
            guard $0.open else { return }
            $0.open = false
            Glibc.close(fd)
        }
    }

    private func wait(for events: Int16, by deadline: Deadline) throws {
        while true {
            let left = deadline.instant - ContinuousClock.now
            guard left > .zero else { throw deadline.error }
            // Rounded up, so a wait never ends just before its deadline and spins on a zero timeout.
            let milliseconds =
                left.components.seconds * 1000 + (left.components.attoseconds + 999_999_999_999_999)
                / 1_000_000_000_000_000
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: milliseconds))
            if state.withLock({ $0.interrupted }) { throw CancellationError() }
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw IOError(errnoCode: errno, reason: "poll") }
        }
    }
}
