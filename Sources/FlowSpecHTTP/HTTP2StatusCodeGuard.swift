import NIOCore
import NIOHPACK
import NIOHTTP2

/// The HTTP/2 counterpart of `StatusCodeGuard`, on each request's stream channel. It sits *before*
/// `HTTP2FramePayloadToHTTP1ClientCodec`, not after it: NIOHTTP2 1.46.0 turns any integer `:status` into an HTTP/1
/// status, and a negative one traps inside that conversion (`UInt(-1)`), an empty one inside its header-block
/// bookkeeping (`first!`). So this reads the raw `:status` of each response head until the final one and refuses any
/// that is not three digits from 100 to 999, forwarding nothing of that stream afterwards.
final class HTTP2StatusCodeGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload

    private enum State {
        /// No final (non-1xx) head yet: the next HEADERS frame carries a `:status`.
        case awaitingFinalHead
        /// The final head passed; later HEADERS frames are trailers, without a status.
        case passing
        case refused
    }
    private var state = State.awaitingFinalHead

    init() {}

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .refused:
            return
        case .passing:
            context.fireChannelRead(data)
        case .awaitingFinalHead:
            guard case .headers(let headers) = unwrapInboundIn(data) else {
                context.fireChannelRead(data)
                return
            }
            let statuses = headers.headers[":status"]
            guard statuses.count == 1, let status = statuses.first, let code = Self.code(status) else {
                state = .refused
                context.fireErrorCaught(InvalidStatusCode(status: statuses.first ?? ""))
                context.close(promise: nil)
                return
            }
            if !(100..<200).contains(code) { state = .passing }
            context.fireChannelRead(data)
        }
    }

    /// The code when `text` is exactly three ASCII digits making 100–999; nil otherwise (`0`, `050`, `-1`, `1000`, ``).
    static func code(_ text: String) -> UInt? {
        let digits = Array(text.utf8)
        guard digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let code = UInt(text), InvalidStatusCode.acceptable.contains(code)
        else { return nil }
        return code
    }
}

@available(*, unavailable)
extension HTTP2StatusCodeGuard: Sendable {}
