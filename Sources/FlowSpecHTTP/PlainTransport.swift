import FlowSpecRuntime
import NIOCore
import NIOHTTP1

/// `PlainHTTPClient` as a transport: plain `http://` requests made on the live adapter's own thread, sent and
/// answered on that thread (`TransportRoute` says which). Why it exists, and what it saves: docs/live.md, "Two HTTP
/// clients behind one seam".
struct PlainTransport: HTTPTransport {
    /// What `TransportRoute` hands over: the request already on its wire form (`PlainHTTPClient.prepare`), and where
    /// to connect.
    struct Routed: Sendable {
        var head: HTTPRequestHead
        var body: ByteBuffer?
        var host: String
        /// The port to connect to: the URL's, or 80.
        var port: Int
    }

    let client: PlainHTTPClient

    init(options: LiveHTTPOptions) { client = PlainHTTPClient(options: options) }

    func send(_ routed: Routed, url: String) async throws(TransportError) -> HTTPResponse {
        try await client.send(routed.head, body: routed.body, host: routed.host, port: routed.port, url: url)
    }

    func shutdown() async { client.shutdown() }
}
