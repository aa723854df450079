/// How the live adapter talks to real backends. Defaults are documented in docs/live.md.
package struct LiveHTTPOptions: Sendable {
    /// Seconds to establish a TCP (and TLS) connection.
    package var connectTimeout: Double = 10
    /// Seconds for a whole request, from sending to the last body byte.
    package var requestTimeout: Double = 30
    /// Skip TLS certificate verification (`--insecure`). Off by default; the CLI warns when it is on.
    package var insecure = false
    /// Follow 3xx redirects (up to 5). Off by default: auth flows usually want to see the redirect itself.
    package var followRedirects = false
    /// Offer HTTP/2 to TLS servers (`--http2`). Off by default: AsyncHTTPClient builds NIO's HTTP/2 handler with
    /// limits no setting reaches, and a server flooding empty CONTINUATION, PING or SETTINGS frames was read into
    /// gigabytes until the frame decoder trapped. Over HTTP/1.1 (what every HTTP/2 server also speaks) each response
    /// is bounded by the body limit and NIO's header limits.
    package var http2 = false
    /// Response bodies larger than this are an infrastructure error, not a silent truncation.
    package var maxBodyBytes = 10 * 1024 * 1024
    /// Sent unless the flow sets its own `User-Agent`.
    package var userAgent = "flowspec/0.1.0"
    /// The environment proxies are read from (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, lower case too).
    package var environment: [String: String] = [:]

    package init() {}
}
