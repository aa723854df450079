import FlowSpecRuntime
import Foundation
import HostileBackend
import Testing

@testable import FlowSpecHTTP

/// Backends that misbehave inside TLS, through the live adapter (AsyncHTTPClient: every https request).
@Suite(.serialized, .timeLimit(.minutes(3))) struct TLSBackendTests {
    func options(_ change: (inout LiveHTTPOptions) -> Void = { _ in }) -> LiveHTTPOptions {
        var o = LiveHTTPOptions()
        o.connectTimeout = 10
        o.requestTimeout = 10
        o.insecure = true
        change(&o)
        return o
    }

    /// Sends `request`, shuts the adapter down, and says how long both took.
    func run(_ request: FlowSpecRuntime.HTTPRequest, _ options: LiveHTTPOptions)
        async -> (result: Result<FlowSpecRuntime.HTTPResponse, TransportError>, answered: Duration, total: Duration)
    {
        let adapter = LiveHTTPAdapter(options: options)
        let clock = ContinuousClock()
        let started = clock.now
        let result: Result<FlowSpecRuntime.HTTPResponse, TransportError>
        do { result = .success(try await adapter.send(request)) } catch { result = .failure(error) }
        let answered = clock.now - started
        await adapter.shutdown()
        return (result, answered, clock.now - started)
    }

    /// The handshake completes, then nothing: the request ends at its timeout, and so does the run — closing the
    /// connection must not wait for a close_notify the server never sends.
    @Test func aServerSilentAfterTheHandshakeEndsTheRunAtTheRequestTimeout() async throws {
        let server = try TLSScriptServer(alpn: ["http/1.1"], .silent)
        defer { server.stop() }
        let outcome = await run(.init(method: "GET", baseURL: server.url, path: "/"), options { $0.requestTimeout = 1 })
        guard case .failure(let error) = outcome.result else {
            Issue.record("a silent server answered")
            return
        }
        #expect(error.kind == .timeout, "\(error)")
        // Loose: under the whole suite's load on two cores this took up to a minute; alone, about 1 s.
        #expect(
            outcome.total < .seconds(100),
            "the run ended \(outcome.total) after it began, \(outcome.total - outcome.answered) of it shutting down")
    }

    /// A server that offers h2 and floods HTTP/2 PING frames (NIO's HTTP/2 decoder read gigabytes of them, then
    /// trapped): FlowSpec negotiates HTTP/1.1, so the frames are garbage to the HTTP/1 decoder and the request ends
    /// at once as an invalid response, and the connection is closed without waiting for the flood to end.
    @Test func anHTTP2FloodIsNotReadByDefault() async throws {
        let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
        let ping: [UInt8] = [0, 0, 8, 6, 0, 0, 0, 0, 0] + [UInt8](repeating: 7, count: 8)
        let server = try TLSScriptServer(
            alpn: ["h2", "http/1.1"], .flood(head: settings, frame: ping, limit: 512 << 20))
        defer { server.stop() }
        // A request timeout far beyond the bounds below: reading the flood would end only there, as a timeout.
        let outcome = await run(
            .init(method: "GET", baseURL: server.url, path: "/"), options { $0.requestTimeout = 100 })
        guard case .failure(let error) = outcome.result else {
            Issue.record("a PING flood answered")
            return
        }
        #expect(error.kind == .invalidResponse, "\(error)")
        // Closing no longer waits out the flood for a close_notify (NIOSSL's 5 s): what is read meanwhile is dropped.
        // Loose for the whole suite on two cores; alone it answers in milliseconds and ends within a second.
        #expect(
            outcome.answered < .seconds(60) && outcome.total < .seconds(90),
            "answered after \(outcome.answered), ended after \(outcome.total)")
        #expect(server.sent < 256 << 20, "the client read \(server.sent) bytes of the flood")
    }

    /// With `--http2` the flood is read as HTTP/2: NIO's decoder keeps no PING frame, so memory stays flat, and the
    /// request ends at its timeout as an infrastructure error (AsyncHTTPClient 1.37 reaches none of NIO's frame
    /// limits, so it cannot be cut short sooner).
    @Test func anHTTP2FloodWithHTTP2AllowedEndsAtTheRequestTimeout() async throws {
        let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
        let ping: [UInt8] = [0, 0, 8, 6, 0, 0, 0, 0, 0] + [UInt8](repeating: 7, count: 8)
        let server = try TLSScriptServer(alpn: ["h2", "http/1.1"], .flood(head: settings, frame: ping, limit: 2 << 30))
        defer { server.stop() }
        let before = Self.residentBytes()
        let outcome = await run(
            .init(method: "GET", baseURL: server.url, path: "/"),
            options {
                $0.requestTimeout = 3; $0.http2 = true
            })
        guard case .failure(let error) = outcome.result else {
            Issue.record("a PING flood answered")
            return
        }
        #expect(error.kind == .timeout, "\(error)")
        #expect(outcome.total < .seconds(90), "ended after \(outcome.total)")
        let grown = Self.residentBytes() - before
        #expect(server.sent > 1 << 20, "the flood was not read: \(server.sent) bytes")
        // Loose: other tests share this process. The unbounded decoder grew by gigabytes in seconds.
        #expect(
            grown < 600 << 20,
            "memory grew by \(grown >> 20) MiB while \(server.sent >> 20) MiB of PING frames were read")
    }

    /// The process's resident memory now, from /proc (Linux).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// https → http would send the request in clear: refused, and nothing reaches the http server.
    @Test func aRedirectFromHTTPSToHTTPIsRefused() async throws {
        let plain = try HostileServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        defer { plain.stop() }
        let server = try TLSScriptServer(
            alpn: ["http/1.1"],
            .reply(
                Array(
                    "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(plain.url)/login\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .utf8)))
        defer { server.stop() }
        let request = FlowSpecRuntime.HTTPRequest(
            method: "POST", baseURL: server.url, path: "/login",
            headers: [("Content-Type", "application/json")],
            body: Data(#"{"password":"hunter2-P4ssw0rd!"}"#.utf8))
        let outcome = await run(request, options { $0.followRedirects = true })
        guard case .failure(let error) = outcome.result else {
            Issue.record("followed https to http")
            return
        }
        #expect(error.cause.contains("from https to plain http"), "\(error)")
        #expect(error.url == request.url)
        #expect(plain.requests.isEmpty, "the password went in clear")
    }
}
