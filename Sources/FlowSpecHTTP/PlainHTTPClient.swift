import AsyncHTTPClient
import FlowSpecRuntime
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Plain `http://` requests sent from `DedicatedThreadExecutor`'s thread, blocking it: no event loop, no connection
/// pool state machine, one `write`, `poll` and `read` a request on a kept-alive connection. Everything else — TLS,
/// proxies, requests from any other thread — goes through AsyncHTTPClient (`TransportRoute` decides which).
///
/// The request goes out as AsyncHTTPClient would send it: the same URI, a `Host` header, `Content-Length` framing
/// by its rules, `Accept-Encoding` from the same decompressor. The timeouts are the same options, and the request
/// timeout covers everything from connecting to the last body byte.
final class PlainHTTPClient: Sendable {
    private struct Origin: Hashable {
        var host: String
        var port: Int
    }

    private let options: LiveHTTPOptions
    private let idle = Mutex<[Origin: [PlainHTTPConnection]]>([:])
    /// Requests this client took on, answered or not: for tests that must know which client it was.
    let taken = Atomic<Int>(0)

    init(options: LiveHTTPOptions) { self.options = options }

    /// The request's head and body as they go on the wire, or nil when only AsyncHTTPClient may send it: a header
    /// name or value it would refuse (its error, worded as before, is the answer), a method it rejects with a body.
    static func prepare(_ request: HTTPRequest, host: String, port: Int?, target: String, userAgent: String) -> (
        HTTPRequestHead, ByteBuffer?
    )? {
        guard request.headers.allSatisfy({ HeaderSyntax.isToken($0.0) && HeaderSyntax.isFieldValue($0.1) }),
            HeaderSyntax.isFieldValue(userAgent)
        else { return nil }
        let method = HTTPMethod(rawValue: request.method)
        let body = request.body.flatMap { $0.isEmpty ? nil : ByteBuffer(bytes: $0) }
        if method == .TRACE && body != nil { return nil }
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headers.count + 4)
        for (name, value) in request.headers { headers.add(name: name, value: value) }
        if request.header("User-Agent") == nil { headers.add(name: "User-Agent", value: userAgent) }
        headers.remove(name: "Content-Length")
        headers.remove(name: "Transfer-Encoding")
        if let body {
            headers.add(name: "Content-Length", value: String(body.readableBytes))
        } else if ![.GET, .HEAD, .DELETE, .CONNECT, .TRACE].contains(method) {
            headers.add(name: "Content-Length", value: "0")
        }
        if !headers.contains(name: "host") {
            let written = port.map { $0 == 80 ? "" : ":\($0)" } ?? ""
            headers.add(name: "host", value: host + written)
        }
        // What AsyncHTTPClient's decompressor adds to a request that does not say which encodings it accepts.
        if !headers.contains(name: "Accept-Encoding") { headers.add(name: "Accept-Encoding", value: "deflate, gzip") }
        return (HTTPRequestHead(version: .http1_1, method: method, uri: target, headers: headers), body)
    }

    func send(_ head: HTTPRequestHead, body: ByteBuffer?, host: String, port: Int, url: String)
        async throws(TransportError) -> HTTPResponse
    {
        taken.add(1, ordering: .relaxed)
        let started = ContinuousClock.now
        let requestDeadline = PlainSocket.Deadline(
            instant: started + .milliseconds(Int64(options.requestTimeout * 1000)),
            error: HTTPClientError.deadlineExceeded)
        let origin = Origin(host: host, port: port)
        var connection: PlainHTTPConnection?
        do {
            connection = takeIdle(origin)
            if connection == nil {
                let connectBy = started + .milliseconds(Int64(options.connectTimeout * 1000))
                let deadline =
                    connectBy < requestDeadline.instant
                    ? PlainSocket.Deadline(instant: connectBy, error: HTTPClientError.connectTimeout) : requestDeadline
                connection = try PlainHTTPConnection(
                    socket: try PlainSocket.connect(host: host, port: port, by: deadline),
                    maxBodyBytes: options.maxBodyBytes)
            }
            let using = connection!
            let response = try await withTaskCancellationHandler {
                try using.exchange(head, body: body, maxBodyBytes: options.maxBodyBytes, by: requestDeadline)
            } onCancel: {
                using.socket.interrupt()
            }
            if using.reusable { putIdle(using, origin) } else { using.socket.close() }
            return response
        } catch {
            connection?.socket.close()
            throw TransportFailure.classify(
                error, url: url, phase: connection?.phase ?? .beforeResponse, options: options)
        }
    }

    /// Closes every idle connection.
    func shutdown() {
        let all = idle.withLock { pools in
            defer { pools = [:] }; return pools.values.flatMap { $0 }
        }
        for connection in all { connection.socket.close() }
    }

    private func takeIdle(_ origin: Origin) -> PlainHTTPConnection? {
        while let candidate = idle.withLock({ $0[origin]?.popLast() }) {
            if candidate.socket.isIdleAndOpen { return candidate }
            candidate.socket.close()
        }
        return nil
    }

    private func putIdle(_ connection: PlainHTTPConnection, _ origin: Origin) {
        idle.withLock { $0[origin, default: []].append(connection) }
    }

    /// The path and query as AsyncHTTPClient 1.37.0 puts them in the request line (`URL.uri` there): for a URL whose
    /// text needs no encoding, the text after the host itself; otherwise as Foundation re-encodes it.
    static func requestTarget(_ text: String, _ url: URL) -> String {
        var bytes = text.utf8[...]
        // Past "scheme://" (a byte scan: the generic `firstRange(of:)` was 3.5% of a live run).
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) {
            bytes = bytes[bytes.index(colon, offsetBy: 3)...]
        }
        let afterHost =
            bytes.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        var rest = bytes[afterHost...]
        if let fragment = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<fragment] }
        if rest.allSatisfy(isSentAsIs) {
            let target = String(Substring(rest))
            return target.first == "/" ? target : "/" + target
        }
        var target =
            url.path.isEmpty
            ? "/" : (URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path)
        if let query = url.query { target += "?" + query }
        return target
    }

    /// Printable ASCII that a URL carries unencoded (RFC 3986 §2), which Foundation leaves as it is.
    static func isSentAsIs(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !#""<>\^`{|}"#.utf8.contains(byte)
    }
}

/// The header syntax AsyncHTTPClient checks before sending (RFC 9110 §5.1 and §5.5); a request it would refuse is
/// left to it, so the refusal reads the same.
enum HeaderSyntax {
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    static func isFieldValue(_ value: String) -> Bool {
        value.utf8.allSatisfy(isFieldValueByte)
    }

    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\t") || (byte > 0x1F && byte != 0x7F)
    }
}
