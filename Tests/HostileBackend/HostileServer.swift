import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP server that misbehaves on purpose, for showing that no backend can crash or hang flowspec: it reads
/// each request, then plays a script of raw bytes, pauses and byte-at-a-time drips before closing the connection.
/// Every connection has a thread of its own (a redirect loop opens several), and none of it touches Swift's
/// cooperative threads, which the tests' awaiting needs on a 2-core machine.
package final class HostileServer: @unchecked Sendable {
    /// One thing the server does after reading a request.
    package enum Step: Sendable {
        case send([UInt8])
        /// Nothing at all for a while: the connection stays open and silent.
        case pause(seconds: Double)
        /// The bytes one at a time, with a pause before each.
        case drip([UInt8], every: Double)

        package static func send(_ text: String) -> Step { .send(Array(text.utf8)) }
    }

    /// A request as it arrived: the head's text and the body its Content-Length announced.
    package struct Request: Sendable {
        package var head: String
        package var body: [UInt8]
        /// The request line's path, e.g. `/hop/3`.
        package var path: String {
            let parts = head.split(separator: " ", maxSplits: 2)
            return parts.count > 1 ? String(parts[1]) : ""
        }
    }

    package var port: Int { loop.port }
    package var url: String { "http://127.0.0.1:\(port)" }

    private var loop: AcceptLoop!
    private let lock = NSLock()
    private var seen: [Request] = []
    private var stopped = false
    private var clients: Set<Int32> = []

    /// Answers every request with `script(request)`, then closes the connection.
    package init(_ script: @escaping @Sendable (Request) -> [Step]) throws {
        loop = try AcceptLoop { [self] client in
            let admitted = lock.withLock { () -> Bool in
                if stopped { return false }
                clients.insert(client)
                return true
            }
            guard admitted else {
                close(client)
                return
            }
            Thread.detachNewThread { [self] in serve(client, script) }
        }
    }

    /// The same steps for every request.
    package convenience init(_ steps: [Step]) throws {
        try self.init { _ in steps }
    }

    /// These bytes for every request, then close.
    package convenience init(reply: String) throws {
        try self.init([.send(reply)])
    }

    /// The requests seen so far, in order.
    package var requests: [Request] { lock.withLock { seen } }

    /// Stops listening and cuts every open connection; scripts still pausing notice and end.
    package func stop() {
        lock.withLock {
            stopped = true
            // shutdown, not close: each connection's thread closes its own descriptor, so none is reused under it.
            for client in clients { shutdown(client, Int32(SHUT_RDWR)) }
        }
        loop.stop()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func serve(_ client: Int32, _ script: @Sendable (Request) -> [Step]) {
        defer {
            lock.withLock { _ = clients.remove(client) }
            close(client)
        }
        guard let request = readRequest(client) else { return }
        lock.withLock { seen.append(request) }
        for step in script(request) {
            switch step {
            case .send(let bytes):
                guard write(client, bytes) else { return }
            case .pause(let seconds):
                guard pause(seconds) else { return }
            case .drip(let bytes, let every):
                for byte in bytes {
                    guard pause(every), write(client, [byte]) else { return }
                }
            }
        }
    }

    /// Sleeps in short slices so `stop()` ends a long silence soon; false once stopped.
    private func pause(_ seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if isStopped { return false }
            Thread.sleep(forTimeInterval: min(0.05, max(0, end.timeIntervalSinceNow)))
        }
        return !isStopped
    }

    /// MSG_NOSIGNAL: the client hanging up mid-script must not raise SIGPIPE and kill the test process.
    private func write(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// The head and the body its Content-Length announces, read completely so that closing afterwards is a clean
    /// FIN and not a reset for unread bytes.
    private func readRequest(_ client: Int32) -> Request? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { return nil }
            received += buffer[0..<n]
            headEnd = Self.find(separator, in: received).map { $0 + separator.count }
        }
        let head = String(decoding: received[..<headEnd!], as: UTF8.self)
        let length =
            head.split(separator: "\r\n").lazy
            .compactMap { line -> Int? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }.first ?? 0
        while received.count - headEnd! < length {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return Request(head: head, body: Array(received[headEnd!...]))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
