import FlowSpecRuntime
import Foundation

/// Which transport sends a request: the one place that decides it, and the one place a request's URL is checked.
///
/// `PlainTransport` takes a request when all of these hold, `PooledTransport` (AsyncHTTPClient) every other one:
/// - the scheme is `http` (any case): the plain client speaks no TLS;
/// - no proxy applies to the host (`ProxySettings.server`: loopback and `NO_PROXY` hosts go direct);
/// - the host is not an IPv6 literal: Foundation gives `http://[::1]:8080` the host `::1`, without its brackets,
///   which the plain client would write so into `Host` (`::1:8080`); so a host with a `:` is never plain;
/// - the request is made on the live adapter's own thread, where blocking on a socket stalls no one else;
/// - `PlainHTTPClient.prepare` can write it as AsyncHTTPClient would: a header AsyncHTTPClient refuses, or a `TRACE`
///   with a body, is left to AsyncHTTPClient, so the refusal reads the same.
///
/// The URL is read once. The everyday shape (`PlainHTTPURL`: lower-case `http`, an ASCII host name or IPv4 address,
/// a port in range, a target sent as written) is read without Foundation, which was 3.5% of a live run; its reading
/// is Foundation's and `RequestURL` finds nothing wrong in it (`PlainHTTPURLTests`, `TransportRouteTests`). Any other
/// URL is read by Foundation and checked by `RequestURL.absoluteURLProblem` before either client sees it.
enum TransportRoute {
    case plain(PlainTransport.Routed)
    case pooled(PooledTransport.Routed)

    /// The route of `request` (or of one hop of its redirects) to `url`; throws for a URL neither client may send.
    static func choose(
        _ request: HTTPRequest, url: String, onLiveThread: Bool, proxies: ProxySettings,
        userAgent: String
    ) throws(TransportError) -> TransportRoute {
        if let everyday = PlainHTTPURL(url) {
            return choose(
                request, scheme: "http", host: everyday.host, port: everyday.port, target: everyday.target,
                onLiveThread: onLiveThread, proxies: proxies, userAgent: userAgent)
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host,
            scheme == "http" || scheme == "https"
        else {
            throw TransportError(
                .other, url: url,
                cause: "not an absolute http(s) URL — check the flow's base_url and the run variables it uses")
        }
        // NIO traps on a port past 65535 and the resolver wraps it (99999 became 34463): refused before either sees it.
        if let problem = RequestURL.absoluteURLProblem(url) {
            throw TransportError(
                .notSent, url: url, cause: "\(problem) — check the flow's base_url and the run variables it uses")
        }
        return choose(
            request, scheme: scheme, host: host, port: parsed.port, target: PlainHTTPClient.requestTarget(url, parsed),
            onLiveThread: onLiveThread, proxies: proxies, userAgent: userAgent)
    }

    /// `target` is only read when the plain client may take the request: for another URL it may cost Foundation's
    /// re-encoding for nothing.
    private static func choose(
        _ request: HTTPRequest, scheme: String, host: String, port: Int?, target: @autoclosure () -> String,
        onLiveThread: Bool, proxies: ProxySettings, userAgent: String
    ) -> TransportRoute {
        let proxy = proxies.server(scheme: scheme, host: host)
        guard scheme == "http", proxy == nil, !host.contains(":"), onLiveThread,
            let (head, body) = PlainHTTPClient.prepare(
                request, host: host, port: port, target: target(), userAgent: userAgent)
        else {
            return .pooled(PooledTransport.Routed(request: request, proxy: proxy))
        }
        return .plain(PlainTransport.Routed(head: head, body: body, host: host, port: port ?? 80))
    }
}
