import Foundation
import HostileBackend

#if canImport(Glibc)
    import Glibc
#endif

/// A one-connection-at-a-time TCP server on loopback that answers every request with fixed bytes and
/// remembers the request heads it saw: for responses no well-behaved server library would send
/// (a body cut short), and for seeing exactly what a client put on the wire (a proxy's request line).
final class RawServer: @unchecked Sendable {
    var port: Int { loop.port }
    private var loop: AcceptLoop!
    private let lock = NSLock()
    private var heads: [String] = []

    init(reply: [UInt8], closeAfterReply: Bool = true, replyToAnyBytes: Bool = false) throws {
        loop = try AcceptLoop { [self] client in
            var head = readHead(client, replyToAnyBytes)
            // Acting as an HTTP proxy: accept the tunnel, then answer the request that comes through it.
            if head.hasPrefix("CONNECT ") {
                let established = Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)
                _ = established.withUnsafeBytes { write(client, $0.baseAddress, established.count) }
                lock.withLock { heads.append(head) }
                head = readHead(client, false)
            }
            lock.withLock { heads.append(head) }
            _ = reply.withUnsafeBytes { write(client, $0.baseAddress, reply.count) }
            if closeAfterReply { close(client) }
        }
    }

    private func readHead(_ client: Int32, _ anyBytes: Bool) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
            if anyBytes { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    var requestHeads: [String] { lock.withLock { heads } }

    func stop() { loop.stop() }
}
