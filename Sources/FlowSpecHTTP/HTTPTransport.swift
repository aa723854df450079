import FlowSpecRuntime

/// One of the live adapter's two ways of sending a request: `PlainTransport` (plain `http://` from the live thread,
/// no event loop) and `PooledTransport` (AsyncHTTPClient, everything else). `TransportRoute.choose` picks one for
/// each request, in one place; `LiveHTTPAdapter` keeps what both share (header checks, redirects).
///
/// Both must give the same answer to every request both can take: the same bytes on the wire, the same response,
/// the same failure in the same words (`TransportFailure`). A `LiveHTTPOptions` field is honoured by both, or the
/// route keeps the requests it matters to away from the one that cannot (docs/live.md, "Adding a client option").
protocol HTTPTransport: Sendable {
    /// The request as `TransportRoute` prepared it for this transport.
    associatedtype Routed: Sendable

    /// Sends one request (one hop of a redirect) to `url` and reads its whole response.
    func send(_ routed: Routed, url: String) async throws(TransportError) -> HTTPResponse

    /// Closes every connection; called once, when the run is over.
    func shutdown() async
}
