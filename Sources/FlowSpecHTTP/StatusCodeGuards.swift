import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTP2

/// Puts the status-code guards into AsyncHTTPClient's pipelines through its public debug initializers, which run
/// after AsyncHTTPClient has built a connection's (or HTTP/2 stream's) handlers and before any request is written.
///
/// If the handler we sit beside is missing — a future AsyncHTTPClient building its pipeline differently — the
/// initializer fails, and with it every request on that connection: better a loud error (and failing tests) than
/// quietly running without the guard.
enum StatusCodeGuards {
    static func install(into configuration: inout HTTPClient.Configuration) {
        configuration.http1_1ConnectionDebugInitializer = { http1($0) }
        configuration.http2StreamChannelDebugInitializer = { http2Stream($0) }
    }

    /// `StatusCodeGuard` right after the HTTP/1.1 response decoder (before any decompressor and AsyncHTTPClient's handler).
    static func http1(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.context(handlerType: ByteToMessageHandler<HTTPResponseDecoder>.self)
            try pipeline.addHandler(StatusCodeGuard(), position: .after(decoder.handler))
        }
    }

    /// `HTTP2StatusCodeGuard` right before the stream's HTTP/2-to-HTTP/1 codec, which cannot take every `:status`.
    static func http2Stream(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let codec = try pipeline.context(handlerType: HTTP2FramePayloadToHTTP1ClientCodec.self)
            try pipeline.addHandler(HTTP2StatusCodeGuard(), position: .before(codec.handler))
        }
    }
}
