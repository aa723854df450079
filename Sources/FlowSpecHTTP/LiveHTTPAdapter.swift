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
/// run one at a time; a plain `http://` request made there with no proxy (each hop of a redirect too) is sent by
/// `PlainHTTPClient` on that thread, which waits for the answer in `poll` — no event loop, no thread switch. Every
/// other request (TLS, a proxy, or one from another thread, like the concurrent copies of `parallel:`) goes
/// through AsyncHTTPClient: one pooled client per proxy route, on one event loop. Why, and what it saves:
/// docs/performance.md, sixth part.
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
        // Closing waits for the server's close_notify, reading (and dropping) whatever it still sends: a flooding
        // server held a run's end for NIOSSL's default 5 s. HTTP's own framing already says where a response ends.
        tls.shutdownTimeout = .milliseconds(500)
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            // Redirects are followed by `send`, hop by hop, with our rules for credentials (see Redirect).
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

    public func shutdown() async {
        plain.shutdown()
        thread.stop()
        try? await direct.shutdown()
        for client in viaProxy.values { try? await client.shutdown() }
        try? await group.shutdownGracefully()
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        if let problem = RequestHeaderCheck.problem(in: request.headers, userAgent: options.userAgent) {
            throw TransportError(.notSent, url: request.url, cause: problem)
        }
        guard options.followRedirects else { return try await exchange(request, url: request.url) }
        var hop = request
        var url = request.url
        var visited = [url]
        var last: Redirect?
        while true {
            let response = try await exchange(hop, url: url, reachedBy: last)
            let found: Redirect?
            do throws(TransportError) {
                found = try Redirect.after(hop, url: url, response: response)
            } catch {
                throw Self.reached(error, by: last)
            }
            guard let redirect = found else { return response }
            let next = redirect.request.url
            // One wording with the rest of the transport errors, under the URL the flow asked for.
            if visited.count > 5 {
                throw TransportFailure.classify(HTTPClientError.redirectLimitReached, url: request.url, phase: .beforeResponse, options: options)
            }
            if visited.contains(next) {
                throw TransportFailure.classify(HTTPClientError.redirectCycleDetected, url: request.url, phase: .beforeResponse, options: options)
            }
            visited.append(next)
            (hop, url, last) = (redirect.request, next, redirect)
        }
    }

    /// A failure on a hop a redirect led to names that hop's URL, and says which redirect led there.
    private static func reached(_ error: TransportError, by redirect: Redirect?) -> TransportError {
        guard let redirect else { return error }
        var error = error
        error.cause += " (after a \(redirect.status) redirect from \(redirect.from))"
        return error
    }

    /// One request to `url`, through the plain-HTTP client when it can take it, else through AsyncHTTPClient.
    private func exchange(_ request: HTTPRequest, url: String, reachedBy redirect: Redirect? = nil) async throws(TransportError) -> HTTPResponse {
        do throws(TransportError) {
            return try await exchangeOnce(request, url: url)
        } catch {
            throw Self.reached(error, by: redirect)
        }
    }

    private func exchangeOnce(_ request: HTTPRequest, url: String) async throws(TransportError) -> HTTPResponse {
        if let plainURL = PlainHTTPURL(url), proxies.server(scheme: "http", host: plainURL.host) == nil,
           thread.isCurrent, let (head, body) = PlainHTTPClient.prepare(request, host: plainURL.host, port: plainURL.port,
                                                                         target: plainURL.target, userAgent: options.userAgent) {
            return try await plain.send(head, body: body, host: plainURL.host, port: plainURL.port ?? 80, url: url)
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host,
              scheme == "http" || scheme == "https" else {
            throw TransportError(.other, url: url, cause: "not an absolute http(s) URL — check the flow's base_url and the run variables it uses")
        }
        // NIO traps on a port past 65535 and the resolver wraps it (99999 became 34463): refused before either sees it.
        if let problem = RequestURL.absoluteURLProblem(url) {
            throw TransportError(.notSent, url: url, cause: "\(problem) — check the flow's base_url and the run variables it uses")
        }
        let proxy = proxies.server(scheme: scheme, host: host)
        if scheme == "http", proxy == nil, !host.contains(":"), thread.isCurrent,
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
