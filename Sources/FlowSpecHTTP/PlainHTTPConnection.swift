import AsyncHTTPClient
import FlowSpecRuntime
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// One kept-alive plain-HTTP/1.1 connection, used by one request at a time on the thread that sends it.
///
/// The bytes are read and written by `PlainSocket`; what a response means is decided by the same NIO handlers
/// AsyncHTTPClient puts in its pipeline — HTTP/1.1's response decoder (llhttp), our status-code guard, and the
/// gzip/deflate decompressor with the body limit — here in an in-memory pipeline, so a response is parsed, refused
/// or decompressed exactly as before, only without an event loop between the flow and the socket. The request is
/// written here, as NIO's encoder writes one whose framing headers are already right (`PlainHTTPClient.prepare`);
/// its head still goes down the pipeline, for the decoder to know that the answer to `HEAD` has no body.
///
/// `@unchecked Sendable`, because its pipeline is not: a connection is only ever used by the request that took it
/// out of `PlainHTTPClient`'s idle list (under its lock), on `DedicatedThreadExecutor`'s one thread, and goes back
/// to the list only when that request is over.
final class PlainHTTPConnection: @unchecked Sendable {
    let socket: PlainSocket
    private let pipeline = EmbeddedChannel()
    private let recorder = ResponseRecorder()
    /// Where received bytes land before the decoder sees them; kept for the connection's life.
    private var incoming = ByteBufferAllocator().buffer(capacity: 16 * 1024)
    /// False once a response or an error leaves the connection unfit for another request.
    private(set) var reusable = true

    init(socket: PlainSocket, maxBodyBytes: Int) throws {
        self.socket = socket
        let handlers = pipeline.pipeline.syncOperations
        try handlers.addHandler(
            ByteToMessageHandler(
                HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop)))
        try handlers.addHandler(StatusCodeGuard())
        try handlers.addHandler(NIOHTTPResponseDecompressor(limit: .size(maxBodyBytes)))
        try handlers.addHandler(recorder)
    }

    /// Where a failure happened, for its wording: before the response head arrived, or while its body did.
    private(set) var phase = TransportFailure.Phase.beforeResponse

    /// Sends the request and reads its whole response.
    func exchange(_ head: HTTPRequestHead, body: ByteBuffer?, maxBodyBytes: Int, by deadline: PlainSocket.Deadline)
        throws -> FlowSpecRuntime.HTTPResponse
    {
        reusable = false
        phase = .beforeResponse
        try pipeline.writeOutbound(HTTPClientRequestPart.head(head))
        _ = try pipeline.readOutbound(as: HTTPClientRequestPart.self)
        let wire = Self.serialize(head, body: body)
        try wire.withUnsafeReadableBytes { try socket.write($0, by: deadline) }
        return try readResponse(maxBodyBytes: maxBodyBytes, by: deadline, keepAliveAsked: head.isKeepAlive)
    }

    /// The request as HTTP/1.1 puts it on the wire (RFC 9112 §3): request line, header lines, blank line, body.
    static func serialize(_ head: HTTPRequestHead, body: ByteBuffer?) -> ByteBuffer {
        var wire = ByteBufferAllocator().buffer(capacity: 256 + head.headers.count * 48 + (body?.readableBytes ?? 0))
        wire.writeString(head.method.rawValue)
        wire.writeInteger(UInt8(ascii: " "))
        wire.writeString(head.uri)
        wire.writeStaticString(" HTTP/1.1\r\n")
        for (name, value) in head.headers {
            wire.writeString(name)
            wire.writeStaticString(": ")
            wire.writeString(value)
            wire.writeStaticString("\r\n")
        }
        wire.writeStaticString("\r\n")
        if var body { wire.writeBuffer(&body) }
        return wire
    }

    private func readResponse(maxBodyBytes: Int, by deadline: PlainSocket.Deadline, keepAliveAsked: Bool) throws
        -> FlowSpecRuntime.HTTPResponse
    {
        var responseHead: HTTPResponseHead?
        var body = ByteBufferAllocator().buffer(capacity: 0)
        while true {
            incoming.clear()
            let count = try incoming.writeWithUnsafeMutableBytes(minimumWritableBytes: 4096) {
                try socket.read(into: $0, by: deadline)
            }
            if count == 0 {
                // The server closed: the decoder decides whether that ended the body or cut it short.
                pipeline.pipeline.fireChannelInactive()
            } else {
                try pipeline.writeInbound(incoming)
            }
            // In the order the pipeline produced them: an error before the end fails the response (a body that does
            // not decompress, say); anything after the end — bytes the decoder refuses — leaves the response
            // standing and the connection unfit for another request.
            let events = recorder.take()
            for (index, event) in events.enumerated() {
                switch event {
                case .failed(let error):
                    throw error
                case .read(.head(let head)):
                    responseHead = head
                    phase = .body
                case .read(.body(var bytes)):
                    guard body.readableBytes + bytes.readableBytes <= maxBodyBytes else {
                        throw NIOTooManyBytesError(maxBytes: maxBodyBytes)
                    }
                    body.writeBuffer(&bytes)
                case .read(.end):
                    guard let head = responseHead else { continue }
                    // A switch of protocols leaves bytes HTTP cannot read.
                    reusable =
                        index == events.count - 1 && count > 0 && keepAliveAsked && head.isKeepAlive
                        && head.status != .switchingProtocols
                    var headers: [(String, String)] = []
                    headers.reserveCapacity(head.headers.count)
                    for header in head.headers { headers.append((header.name, header.value)) }
                    return FlowSpecRuntime.HTTPResponse(
                        status: Int(head.status.code), headers: headers, body: body.withUnsafeReadableBytes { Data($0) }
                    )
                }
            }
            if count == 0 { throw HTTPClientError.remoteConnectionClosed }
        }
    }
}

/// The pipeline's last handler: keeps the response parts and errors that reach it, in the order they came, for
/// `PlainHTTPConnection` to read after each batch of bytes (an error and the parts around it would otherwise arrive
/// apart, the error thrown by the channel and the parts buffered).
final class ResponseRecorder: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    enum Event {
        case read(HTTPClientResponsePart)
        case failed(any Error)
    }

    private var events: [Event] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        events.append(.read(unwrapInboundIn(data)))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        events.append(.failed(error))
    }

    func take() -> [Event] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }
}

@available(*, unavailable)
extension ResponseRecorder: Sendable {}
