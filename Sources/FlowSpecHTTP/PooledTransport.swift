import AsyncHTTPClient
import FlowSpecRuntime
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// AsyncHTTPClient as a transport: every request `TransportRoute` does not give to `PlainTransport` — TLS, a proxy,
/// an IPv6 literal host, a request from another thread than the live one (the concurrent copies of `parallel:`),
/// a header or method only AsyncHTTPClient may refuse. One pooled client per proxy route, on one event loop.
final class PooledTransport: HTTPTransport {
    /// What `TransportRoute` hands over: the request, and the proxy it goes through (nil: direct).
    struct Routed: Sendable {
        var request: HTTPRequest
        var proxy: ProxySettings.Server?
    }

    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let options: LiveHTTPOptions
    private let direct: HTTPClient
    private let viaProxy: [ProxySettings.Server: HTTPClient]

    init(options: LiveHTTPOptions, proxies: ProxySettings) {
        self.options = options
        direct = Self.makeClient(options, proxy: nil, group: group)
        var clients: [ProxySettings.Server: HTTPClient] = [:]
        for server in [proxies.http, proxies.https].compactMap({ $0 }) where clients[server] == nil {
            clients[server] = Self.makeClient(options, proxy: server, group: group)
        }
        viaProxy = clients
    }

    private static func makeClient(_ options: LiveHTTPOptions, proxy: ProxySettings.Server?, group: EventLoopGroup)
        -> HTTPClient
    {
        var tls = TLSConfiguration.makeClientConfiguration()
        if options.insecure { tls.certificateVerification = .none }
        // Closing waits for the server's close_notify, reading (and dropping) whatever it still sends: a flooding
        // server held a run's end for NIOSSL's default 5 s. HTTP's own framing already says where a response ends.
        tls.shutdownTimeout = .milliseconds(500)
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            // Redirects are followed by `LiveHTTPAdapter.send`, hop by hop, with our rules for credentials (see Redirect).
            redirectConfiguration: .disallow,
            // No request can use a connection that takes longer than the request timeout, and shutting down waits for
            // every connection still being made (a TLS handshake a silent server never answers held a run's end for
            // the whole connect timeout): so an attempt ends with the request timeout, if that comes first.
            timeout: .init(connect: .milliseconds(Int64(min(options.connectTimeout, options.requestTimeout) * 1000))),
            proxy: proxy.map { .server(host: $0.host, port: $0.port) }
        )
        configuration.decompression = .enabled(limit: .size(options.maxBodyBytes))
        // HTTP/1.1 unless asked (see LiveHTTPOptions.http2): ALPN then offers only http/1.1.
        configuration.httpVersion = options.http2 ? .automatic : .http1Only
        // A status below 100 would otherwise stop the process inside AsyncHTTPClient (see InvalidStatusCode).
        StatusCodeGuards.install(into: &configuration)
        // A refused connection is an answer: report it at once instead of retrying until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
    }

    func send(_ routed: Routed, url: String) async throws(TransportError) -> HTTPResponse {
        let request = routed.request
        let client = routed.proxy.flatMap { viaProxy[$0] } ?? direct

        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if request.header("User-Agent") == nil { outgoing.headers.add(name: "User-Agent", value: options.userAgent) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }

        let deadline = TimeAmount.milliseconds(Int64(options.requestTimeout * 1000))
        let started = ContinuousClock.now
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, timeout: deadline)
        } catch {
            throw TransportFailure.classify(error, url: url, phase: .beforeResponse, options: options)
        }
        let body: ByteBuffer
        do {
            // The request timeout covers the body too: what is left of it after the head.
            let left = Duration.milliseconds(Int64(options.requestTimeout * 1000)) - (ContinuousClock.now - started)
            body = try await BodyDeadline.collect(response.body, upTo: options.maxBodyBytes, within: left)
        } catch {
            throw TransportFailure.classify(error, url: url, phase: .body, options: options)
        }
        var headers: [(String, String)] = []
        headers.reserveCapacity(response.headers.count)
        for header in response.headers { headers.append((header.name, header.value)) }
        return HTTPResponse(
            status: Int(response.status.code), headers: headers, body: body.withUnsafeReadableBytes { Data($0) })
    }

    func shutdown() async {
        try? await direct.shutdown()
        for client in viaProxy.values { try? await client.shutdown() }
        try? await group.shutdownGracefully()
    }
}
