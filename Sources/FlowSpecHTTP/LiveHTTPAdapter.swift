import AsyncHTTPClient
import Foundation
import FlowSpecRuntime
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Real HTTP. Call `shutdown()` when the run is over.
///
/// Two clients behind one seam. The run's `preferredExecutor` is a thread of the adapter's own, where live flows
/// run one at a time; a plain `http://` request made there, with no proxy and no redirects to follow, is sent by
/// `PlainHTTPClient` on that thread, which waits for the answer in `poll` — no event loop, no thread switch. Every
/// other request (TLS, a proxy, `--follow-redirects`, or one from another thread, like the concurrent copies of
/// `parallel:`) goes through AsyncHTTPClient: one pooled client per proxy route, on one event loop. Why, and what
/// it saves: docs/performance.md, sixth part.
public final class LiveHTTPAdapter: HTTPAdapter {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let thread = DedicatedThreadExecutor(name: "flowspec-live")
    public var preferredExecutor: (any TaskExecutor)? { thread }
    private let plain: PlainHTTPClient
    private let options: LiveHTTPOptions
    private let proxies: ProxySettings
    private let direct: HTTPClient
    private let viaProxy: [ProxySettings.Server: HTTPClient]

    public init(options: LiveHTTPOptions = LiveHTTPOptions()) {
        self.options = options
        plain = PlainHTTPClient(options: options)
        proxies = ProxySettings(environment: options.environment)
        direct = Self.makeClient(options, proxy: nil, group: group)
        var clients: [ProxySettings.Server: HTTPClient] = [:]
        for server in [proxies.http, proxies.https].compactMap({ $0 }) where clients[server] == nil {
            clients[server] = Self.makeClient(options, proxy: server, group: group)
        }
        viaProxy = clients
    }

    private static func makeClient(_ options: LiveHTTPOptions, proxy: ProxySettings.Server?, group: EventLoopGroup) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if options.insecure { tls.certificateVerification = .none }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: options.followRedirects ? .follow(max: 5, allowCycles: false) : .disallow,
            timeout: .init(connect: .milliseconds(Int64(options.connectTimeout * 1000))),
            proxy: proxy.map { .server(host: $0.host, port: $0.port) }
        )
        configuration.decompression = .enabled(limit: .size(options.maxBodyBytes))
        // A status below 100 would otherwise stop the process inside AsyncHTTPClient (see InvalidStatusCode).
        StatusCodeGuards.install(into: &configuration)
        // A refused connection is an answer: report it at once instead of retrying until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
    }

    public func shutdown() async {
        plain.shutdown()
        thread.stop()
        try? await direct.shutdown()
        for client in viaProxy.values { try? await client.shutdown() }
        try? await group.shutdownGracefully()
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let url = request.url
        if let plainURL = PlainHTTPURL(url), proxies.server(scheme: "http", host: plainURL.host) == nil, !options.followRedirects,
           thread.isCurrent, let (head, body) = PlainHTTPClient.prepare(request, host: plainURL.host, port: plainURL.port,
                                                                         target: plainURL.target, userAgent: options.userAgent) {
            return try await plain.send(head, body: body, host: plainURL.host, port: plainURL.port ?? 80, url: url)
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host,
              scheme == "http" || scheme == "https" else {
            throw TransportError(.other, url: url, cause: "not an absolute http(s) URL — check the flow's base_url and the run variables it uses")
        }
        let proxy = proxies.server(scheme: scheme, host: host)
        if scheme == "http", proxy == nil, !options.followRedirects, !host.contains(":"), thread.isCurrent,
           let (head, body) = PlainHTTPClient.prepare(request, host: host, port: parsed.port, target: PlainHTTPClient.requestTarget(url, parsed),
                                                      userAgent: options.userAgent) {
            return try await plain.send(head, body: body, host: host, port: parsed.port ?? 80, url: url)
        }
        let client = proxy.flatMap { viaProxy[$0] } ?? direct

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
        return HTTPResponse(status: Int(response.status.code), headers: headers, body: body.withUnsafeReadableBytes { Data($0) })
    }

    /// How many requests `PlainHTTPClient` took on, for tests that must know which client answered.
    var plainRequests: Int { plain.taken.load(ordering: .relaxed) }
}
