import FlowSpecRuntime
import Foundation

/// A redirect a response asks for, and the request that follows it (`--follow-redirects`).
///
/// We follow redirects ourselves rather than through AsyncHTTPClient, whose follower (1.37.0) re-sent to another
/// origin every header but `Authorization`, `Cookie`, `Proxy-Authorization` and `Origin` — API keys and a JSON
/// password included — and followed https to http. Here, and the same for both clients:
/// - a hop to another origin (scheme, host, port) carries only the headers in `keptAcrossOrigins`, and no body: the
///   adapter cannot tell every header that holds a credential (`X-Session`, a header a flow fills from a secret), so
///   it keeps only those that never do;
/// - https to http is refused, since the request would then travel in clear;
/// - 303 (not from HEAD), and 301 or 302 from POST, turn the request into a GET without a body, as AsyncHTTPClient
///   and browsers do;
/// - a Location that is not a usable http(s) URL (a port beyond 65535, no host) ends the request with a clear error;
///   one to another scheme (an app's `myapp://callback?code=…`) is not followed: the flow sees the redirect itself.
struct Redirect {
    /// The request for the next hop: its `url` is the resolved Location.
    var request: HTTPRequest
    /// The status that asked for it, and the URL that answered with it.
    var status: Int
    var from: String

    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Headers that carry no credential, kept on a hop to another origin (compared without regard to case).
    static let keptAcrossOrigins = [
        "Accept", "Accept-Language", "Accept-Encoding", "User-Agent", "Cache-Control", "Pragma",
    ]

    /// The redirect `response` to `request` (sent to `url`) asks for; nil when there is none to follow.
    static func after(_ request: HTTPRequest, url: String, response: HTTPResponse) throws(TransportError) -> Redirect? {
        guard statuses.contains(response.status), let location = response.header("Location") else { return nil }
        let status = response.status
        guard let base = URL(string: url), let target = URL(string: location, relativeTo: base)?.absoluteURL else {
            throw TransportError(.invalidResponse, url: url, cause: "its \(status) redirect's Location is not a URL")
        }
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let next = target.absoluteString
        // The one check every request URL gets (RequestURL): a host, and a port NIO can take.
        if let problem = RequestURL.absoluteURLProblem(next) {
            throw TransportError(
                .invalidResponse, url: url,
                cause: "its \(status) redirect goes to \(next), which cannot be requested: \(problem)")
        }
        if base.scheme?.lowercased() == "https", scheme == "http" {
            throw TransportError(
                .other, url: url,
                cause: "its \(status) redirect goes from https to plain http (\(next)), which would send the "
                    + "request in clear; FlowSpec does not follow it (leave --follow-redirects off to see the redirect itself)"
            )
        }

        let method = request.method.uppercased()
        let toGet = (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST")
        let sameOrigin = Origin(base) == Origin(target)
        var headers = request.headers
        if toGet {
            headers.removeAll { header in
                ["Content-Length", "Content-Type", "Transfer-Encoding"].contains { HeaderName.same(header.0, $0) }
            }
        }
        if !sameOrigin {
            headers.removeAll { header in !keptAcrossOrigins.contains { HeaderName.same(header.0, $0) } }
        }
        let body = toGet || !sameOrigin ? nil : request.body
        // The whole URL as the path, with no base: `HTTPRequest.url` is then exactly `next`.
        let hop = HTTPRequest(
            method: toGet ? "GET" : request.method, baseURL: nil, path: next, headers: headers, body: body)
        return Redirect(request: hop, status: status, from: url)
    }

    /// Scheme, host and port, the port defaulted by the scheme (RFC 6454).
    private struct Origin: Equatable {
        var scheme: String?
        var host: String?
        var port: Int?

        init(_ url: URL) {
            scheme = url.scheme?.lowercased()
            host = url.host?.lowercased()
            port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }
    }
}
