import FlowSpecLanguage
import FlowSpecRuntime
import Foundation
import HostileBackend
import NIOPosix
import Testing

@testable import FlowSpecHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The plain-HTTP client that answers requests made on the live adapter's own thread: that it is the one used
/// there, that it puts on the wire what AsyncHTTPClient puts, keeps connections alive without reusing dead ones,
/// decompresses as AsyncHTTPClient does, and lets a cancelled flow go at once.
@Suite(.serialized, .timeLimit(.minutes(5))) struct PlainHTTPClientTests {
    func post(_ base: String) -> FlowSpecRuntime.HTTPRequest {
        FlowSpecRuntime.HTTPRequest(
            method: "POST", baseURL: base, path: "/api/auth/login", query: [("next", "/a b")],
            headers: [("Content-Type", "application/json"), ("X-Trace", "1")],
            body: Data(#"{"email":"qa@example.com"}"#.utf8))
    }

    @Test func aTaskPreferringTheAdaptersExecutorRunsOnItsThreadAndSendsWithoutAnEventLoop() async throws {
        let server = try HostileServer(
            reply: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}")
        defer { server.stop() }
        let adapter = LiveHTTPAdapter()
        let executor = try #require(adapter.preferredExecutor as? DedicatedThreadExecutor)
        let (before, status, after, loop) = await withTaskExecutorPreference(executor) {
            let before = executor.isCurrent
            let status = try? await adapter.send(HTTPRequest(method: "GET", baseURL: server.url, path: "/")).status
            return (before, status, executor.isCurrent, MultiThreadedEventLoopGroup.currentEventLoop != nil)
        }
        await adapter.shutdown()
        #expect(status == 200)
        #expect(before, "the task did not start on the adapter's thread")
        #expect(after, "the task left the adapter's thread across its request")
        #expect(!loop, "the adapter's thread is not an event loop")
        #expect(adapter.plainRequests == 1)
        #expect(!executor.isCurrent, "without the preference a task runs on Swift's own pool")
    }

    /// Request line and every header, byte for byte, whichever client sent them (header order aside).
    @Test(arguments: ["POST", "GET", "DELETE", "PUT"])
    func bothClientsPutTheSameRequestOnTheWire(method: String) async throws {
        let server = try RawServer(reply: Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
        defer { server.stop() }
        for route in Route.allCases {
            let adapter = LiveHTTPAdapter()
            var request = post("http://127.0.0.1:\(server.port)")
            request.method = method
            if method == "GET" || method == "PUT" { request.body = nil }
            let result = await route.sendPlainHTTP(request, with: adapter)
            await adapter.shutdown()
            #expect(try result.get().status == 204)
        }
        /// The head's lines, request line first; the plain client writes the body in the same packet, so it is cut off.
        func lines(_ received: String) -> [String] {
            let head = received.components(separatedBy: "\r\n\r\n")[0]
            let all = head.components(separatedBy: "\r\n")
            return Array(all.prefix(1)) + all.dropFirst().sorted()
        }
        let heads = server.requestHeads.map(lines)
        try #require(heads.count == 2)
        #expect(heads[0] == heads[1])
        #expect(heads[0].first == "\(method) /api/auth/login?next=%2Fa%20b HTTP/1.1", "\(heads[0])")
        #expect(heads[0].contains("Accept-Encoding: deflate, gzip"), "\(heads[0])")
    }

    /// The request line's target, taken from the URL's text when it needs no encoding, is what AsyncHTTPClient
    /// computes through Foundation (its `URL.uri`, copied here as the oracle).
    @Test(arguments: [
        "http://h:1/a/b?x=1&y=%2F", "http://h:1", "http://h:1?x=1", "http://h/a#frag", "http://h/a%20b",
        "http://h/a b?c d", "http://h/ü?é", "http://h/a?b=c#d", "http://h/a;p?q", "http://h/a?", "HTTP://h/A/./b/../c",
        "http://user:pw@h:8080/p?q=%7B%7D", "http://h/?", "http://[::1]:80/x",
    ])
    func theRequestTargetIsWhatAsyncHTTPClientSends(url: String) throws {
        let parsed = try #require(URL(string: url))
        var expected =
            parsed.path.isEmpty
            ? "/" : (URLComponents(url: parsed, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? parsed.path)
        if let query = parsed.query { expected += "?" + query }
        #expect(PlainHTTPClient.requestTarget(url, parsed) == expected)
    }

    /// The answer to `HEAD` has no body whatever its `Content-Length` says: the decoder must know the method, or it
    /// would wait for 100 bytes that never come.
    @Test(arguments: Route.allCases) func aHeadRequestsAnswerHasNoBody(route: Route) async throws {
        let server = try RawServer(
            reply: Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".utf8), closeAfterReply: false)
        defer { server.stop() }
        var options = LiveHTTPOptions()
        options.requestTimeout = 5
        let adapter = LiveHTTPAdapter(options: options)
        let result = await route.sendPlainHTTP(
            HTTPRequest(method: "HEAD", baseURL: "http://127.0.0.1:\(server.port)", path: "/"), with: adapter)
        await adapter.shutdown()
        let answer = try result.get()
        #expect(answer.status == 200)
        #expect(answer.body.isEmpty)
    }

    /// `localhost` resolves to `::1` before `127.0.0.1` on most machines; a server listening on IPv4 only is still reached.
    @Test(arguments: Route.allCases) func localhostReachesAServerListeningOnIPv4Only(route: Route) async throws {
        let server = try HostileServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        defer { server.stop() }
        let adapter = LiveHTTPAdapter()
        let result = await route.sendPlainHTTP(
            HTTPRequest(method: "GET", baseURL: "http://localhost:\(server.port)", path: "/"), with: adapter)
        await adapter.shutdown()
        #expect(try result.get().body == Data("ok".utf8))
        #expect(
            server.requests.first?.head.contains("localhost:\(server.port)") == true,
            "the Host header names the URL's host")
    }

    /// A server that hangs up while an upload is still going out: the same words from both clients.
    @Test(arguments: Route.allCases) func aServerClosingDuringTheUploadClosedWithoutAnswering(route: Route) async throws
    {
        let server = try RawServer(reply: [], replyToAnyBytes: true)
        defer { server.stop() }
        let adapter = LiveHTTPAdapter()
        let upload = HTTPRequest(
            method: "POST", baseURL: "http://127.0.0.1:\(server.port)", path: "/",
            body: Data(repeating: 65, count: 8_000_000))
        let result = await route.sendPlainHTTP(upload, with: adapter)
        await adapter.shutdown()
        guard case .failure(let error) = result else {
            Issue.record("an answer from a server that sent nothing: \(result)"); return
        }
        #expect(error.kind == .other)
        #expect(error.cause == "the server closed the connection without answering", "\(error)")
    }

    @Test func requestsInARowShareOneConnection() async throws {
        let server = try KeepAliveServer(closeAfterEachResponse: false)
        defer { server.stop() }
        let adapter = LiveHTTPAdapter()
        for _ in 0..<3 {
            #expect(try await Route.plain.sendPlainHTTP(post(server.url), with: adapter).get().status == 200)
        }
        await adapter.shutdown()
        #expect(server.counts == (connections: 1, requests: 3))
    }

    /// Servers close idle kept-alive connections (Node after 5 s, for one): the next request must not be sent on one.
    @Test func aConnectionTheServerClosedIsNotReused() async throws {
        let server = try KeepAliveServer(closeAfterEachResponse: true)
        defer { server.stop() }
        let adapter = LiveHTTPAdapter()
        for _ in 0..<3 {
            #expect(try await Route.plain.sendPlainHTTP(post(server.url), with: adapter).get().status == 200)
            // Give the server's close time to arrive, as an idle gap between a flow's requests would.
            try await Task.sleep(for: .milliseconds(50))
        }
        await adapter.shutdown()
        #expect(server.counts == (connections: 3, requests: 3))
    }

    @Test(arguments: Route.allCases) func aGzipBodyIsDecompressedByBothClients(route: Route) async throws {
        let gzipped: [UInt8] = [
            31, 139, 8, 0, 0, 0, 0, 0, 2, 255, 171, 86, 202, 207, 86, 178, 42, 41, 42, 77, 173, 5, 0, 144, 95, 212, 167,
            11, 0, 0, 0,
        ]
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipped.count)\r\n\r\n"
        let server = try RawServer(reply: Array(head.utf8) + gzipped)
        defer { server.stop() }
        let adapter = LiveHTTPAdapter()
        let result = await route.sendPlainHTTP(
            HTTPRequest(method: "GET", baseURL: "http://127.0.0.1:\(server.port)", path: "/"), with: adapter)
        await adapter.shutdown()
        #expect(try result.get().json == .object(["ok": .bool(true)]))
    }

    /// `--timeout` abandons a scenario by cancelling it: a request blocked on the adapter's thread must end then,
    /// not at its own timeout, or the next live scenario would wait behind it.
    @Test func aCancelledRequestEndsAtOnceAndFreesTheThread() async throws {
        let silent = try HostileServer([.pause(seconds: 30)])
        defer { silent.stop() }
        let adapter = LiveHTTPAdapter()
        let clock = ContinuousClock()
        let started = clock.now
        let blocked = Task {
            await Route.plain.sendPlainHTTP(HTTPRequest(method: "GET", baseURL: silent.url, path: "/"), with: adapter)
        }
        try await Task.sleep(for: .milliseconds(300))
        blocked.cancel()
        let outcome = await blocked.value
        let waited = clock.now - started
        #expect(waited < .seconds(10), "the cancelled request held on for \(waited)")
        guard case .failure = outcome else { Issue.record("a cancelled request answered: \(outcome)"); return }
        let server = try HostileServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        defer { server.stop() }
        #expect(
            try await Route.plain.sendPlainHTTP(
                HTTPRequest(method: "GET", baseURL: server.url, path: "/"), with: adapter
            ).get().status == 200)
        await adapter.shutdown()
    }
}

/// A loopback server that keeps connections alive: it answers every request on a connection with a small JSON
/// body, and counts connections and requests. `closeAfterEachResponse` closes each connection after its answer,
/// without saying so in a header, as a server timing out an idle connection does.
final class KeepAliveServer: @unchecked Sendable {
    var port: Int { loop.port }
    var url: String { "http://127.0.0.1:\(port)" }
    private var loop: AcceptLoop!
    private let lock = NSLock()
    private var connections = 0
    private var requests = 0

    init(closeAfterEachResponse: Bool) throws {
        loop = try AcceptLoop { [self] client in
            lock.withLock { connections += 1 }
            Thread.detachNewThread { [self] in
                defer { close(client) }
                var pending: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    guard let end = Self.endOfRequest(pending) else {
                        let n = read(client, &buffer, buffer.count)
                        if n <= 0 { return }
                        pending += buffer[0..<n]
                        continue
                    }
                    pending.removeFirst(end)
                    lock.withLock { requests += 1 }
                    let reply = Array(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}"
                            .utf8)
                    _ = reply.withUnsafeBytes { write(client, $0.baseAddress, reply.count) }
                    if closeAfterEachResponse { return }
                }
            }
        }
    }

    var counts: (connections: Int, requests: Int) { lock.withLock { (connections, requests) } }

    func stop() { loop.stop() }

    /// Where the first whole request in `bytes` ends (its head and the body its Content-Length announces), if it has arrived.
    static func endOfRequest(_ bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<headEnd.lowerBound].lowercased()
        let length =
            head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let total = text.utf8.distance(from: text.utf8.startIndex, to: headEnd.upperBound) + length
        return bytes.count >= total ? total : nil
    }
}
