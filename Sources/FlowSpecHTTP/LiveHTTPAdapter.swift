import AsyncHTTPClient
import FlowSpecRuntime

/// Real HTTP. Call `shutdown()` when the run is over.
///
/// Two clients behind one seam. The run's `preferredExecutor` is a thread of the adapter's own, where live flows
/// run one at a time; a plain `http://` request made there with no proxy (each hop of a redirect too) is sent by
/// `PlainTransport` on that thread, which waits for the answer in `poll` — no event loop, no thread switch. Every
/// other request (TLS, a proxy, or one from another thread, like the concurrent copies of `parallel:`) goes
/// through `PooledTransport` (AsyncHTTPClient). `TransportRoute` decides which, in one place. Why, and what it
/// saves: docs/live.md, "Two HTTP clients behind one seam".
package final class LiveHTTPAdapter: HTTPAdapter {
    private let thread = DedicatedThreadExecutor(name: "flowspec-live")
    package var preferredExecutor: (any TaskExecutor)? { thread }
    private let options: LiveHTTPOptions
    private let proxies: ProxySettings
    private let plain: PlainTransport
    private let pooled: PooledTransport

    package init(options: LiveHTTPOptions = LiveHTTPOptions()) {
        self.options = options
        plain = PlainTransport(options: options)
        proxies = ProxySettings(environment: options.environment)
        pooled = PooledTransport(options: options, proxies: proxies)
    }

    package func shutdown() async {
        await plain.shutdown()
        thread.stop()
        await pooled.shutdown()
    }

    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
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
                throw TransportFailure.classify(
                    HTTPClientError.redirectLimitReached, url: request.url, phase: .beforeResponse, options: options)
            }
            if visited.contains(next) {
                throw TransportFailure.classify(
                    HTTPClientError.redirectCycleDetected, url: request.url, phase: .beforeResponse, options: options)
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

    /// One request to `url`, through the transport `TransportRoute` picks.
    private func exchange(_ request: HTTPRequest, url: String, reachedBy redirect: Redirect? = nil)
        async throws(TransportError) -> HTTPResponse
    {
        do throws(TransportError) {
            return try await exchangeOnce(request, url: url)
        } catch {
            throw Self.reached(error, by: redirect)
        }
    }

    private func exchangeOnce(_ request: HTTPRequest, url: String) async throws(TransportError) -> HTTPResponse {
        switch try TransportRoute.choose(
            request, url: url, onLiveThread: thread.isCurrent, proxies: proxies, userAgent: options.userAgent)
        {
        case .plain(let routed): return try await plain.send(routed, url: url)
        case .pooled(let routed): return try await pooled.send(routed, url: url)
        }
    }

    /// How many requests `PlainHTTPClient` took on, for tests that must know which client answered.
    var plainRequests: Int { plain.client.taken.load(ordering: .relaxed) }
}
