import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-connection-at-a-time TCP server on loopback that answers every request with fixed bytes and
/// remembers the request heads it saw: for responses no well-behaved server library would send
/// (a body cut short), and for seeing exactly what a client put on the wire (a proxy's request line).
final class RawServer: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var heads: [String] = []

    init(reply: [UInt8], closeAfterReply: Bool = true, replyToAnyBytes: Bool = false) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        _ = bound
        port = Int(UInt16(bigEndian: address.sin_port))
        let listening = fd
        let replyToAnyBytes = replyToAnyBytes
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listening, nil, nil)
                if client < 0 { return }
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

    func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}
