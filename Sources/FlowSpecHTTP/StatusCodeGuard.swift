import NIOCore
import NIOHTTP1

/// Sits right after HTTP/1.1's response decoder and stops a head whose status is below 100 or above 999 from
/// reaching AsyncHTTPClient, which traps on a status below 100 (see `InvalidStatusCode`). It forwards nothing of
/// such a response — not the head, not the body, not the end — fires `InvalidStatusCode` instead, which fails the
/// running request, and closes the connection, whose remaining bytes nobody can interpret.
final class StatusCodeGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    /// Set once a bad head arrived: whatever the decoder still hands over belongs to that response.
    private var refused = false

    init() {}

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data), !InvalidStatusCode.acceptable.contains(head.status.code) {
            refused = true
            context.fireErrorCaught(InvalidStatusCode(status: String(head.status.code)))
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }
}

@available(*, unavailable)
extension StatusCodeGuard: Sendable {}
