import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP1
import NIOHTTP2
import Testing

@testable import FlowSpecHTTP

/// The guards in front of AsyncHTTPClient, without a socket: a status it would trap on never reaches it.
@Suite(.timeLimit(.minutes(5))) struct StatusCodeGuardTests {
    func head(_ code: UInt) -> HTTPClientResponsePart {
        .head(HTTPResponseHead(version: .http1_1, status: .custom(code: code, reasonPhrase: "X")))
    }

    /// A channel with the guard and nothing behind it: what it forwards is what `readInbound` returns.
    func guarded() throws -> EmbeddedChannel {
        let channel = try connected()
        try channel.pipeline.syncOperations.addHandler(StatusCodeGuard())
        return channel
    }

    /// Active, as a real connection is, so that the guard's close shows.
    func connected() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        #expect(channel.isActive)
        return channel
    }

    @Test(arguments: [0, 50, 99, 1000, 65535] as [UInt])
    func aStatusOutside100To999FiresAnErrorAndForwardsNothingOfThatResponse(code: UInt) throws {
        let channel = try guarded()
        #expect(throws: InvalidStatusCode(status: "\(code)")) { try channel.writeInbound(head(code)) }
        _ = try? channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: "zero")))
        _ = try? channel.writeInbound(HTTPClientResponsePart.end(nil))
        #expect(try channel.readInbound(as: HTTPClientResponsePart.self) == nil)
        #expect(!channel.isActive, "the connection is closed: its remaining bytes mean nothing")
    }

    @Test(arguments: [100, 101, 150, 200, 404, 599, 999] as [UInt])
    func aStatusFrom100To999PassesThroughWithItsBody(code: UInt) throws {
        let channel = try guarded()
        try channel.writeInbound(head(code))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: "ok")))
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
        #expect(try channel.readInbound(as: HTTPClientResponsePart.self) == head(code))
        #expect(try channel.readInbound(as: HTTPClientResponsePart.self) == .body(ByteBuffer(string: "ok")))
        #expect(try channel.readInbound(as: HTTPClientResponsePart.self) == .end(nil))
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test func theMessageNamesTheStatusAndTheValidRange() {
        #expect(
            InvalidStatusCode(status: "0").description
                == "the server answered with status 0, which is not an HTTP status code (100–999)")
        #expect(InvalidStatusCode(status: "").description == "the server answered without a status code")
    }

    /// The installer finds AsyncHTTPClient's decoder and puts the guard right after it, before AsyncHTTPClient's handler.
    @Test func theHTTP1GuardGoesRightAfterTheResponseDecoder() throws {
        let channel = EmbeddedChannel()
        let decoder = ByteToMessageHandler(
            HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward))
        try channel.pipeline.syncOperations.addHandler(HTTPRequestEncoder())
        try channel.pipeline.syncOperations.addHandler(decoder)
        let installed = StatusCodeGuards.http1(channel)
        channel.embeddedEventLoop.run()
        try installed.wait()
        _ = try channel.pipeline.syncOperations.context(handlerType: StatusCodeGuard.self)
        // Through the real decoder — the guard only sees decoded parts if it sits after it: the request goes out,
        // `HTTP/1.1 000 Zero` comes back and is stopped.
        try channel.writeOutbound(
            HTTPClientRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")))
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        #expect(throws: InvalidStatusCode(status: "0")) {
            try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n"))
        }
        #expect(try channel.readInbound(as: HTTPClientResponsePart.self) == nil)
    }

    @Test func aPipelineWithoutTheDecoderFailsTheConnectionRatherThanGoUnguarded() throws {
        let channel = EmbeddedChannel()
        let installed = StatusCodeGuards.http1(channel)
        channel.embeddedEventLoop.run()
        #expect(throws: (any Error).self) { try installed.wait() }
    }

    // MARK: HTTP/2

    func headers(_ status: String?, endStream: Bool = false) -> HTTP2Frame.FramePayload {
        var block = HPACKHeaders()
        if let status { block.add(name: ":status", value: status) }
        block.add(name: "content-type", value: "application/json")
        return .headers(.init(headers: block, endStream: endStream))
    }

    /// A stream channel as AsyncHTTPClient builds it (the codec), with our guard installed and a request sent.
    func http2Stream() throws -> EmbeddedChannel {
        let channel = try connected()
        try channel.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https))
        let installed = StatusCodeGuards.http2Stream(channel)
        channel.embeddedEventLoop.run()
        try installed.wait()
        var request = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
        request.headers.add(name: "host", value: "example.test")
        try channel.writeOutbound(HTTPClientRequestPart.head(request))
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        return channel
    }

    /// `-1` would trap inside NIOHTTP2's codec (`UInt(-1)`), `` inside its header bookkeeping, `0`/`050` inside
    /// AsyncHTTPClient: none of them reaches the codec.
    @Test(arguments: ["0", "050", "099", "-1", "", "1000", "20x", " 200", "+200"])
    func anHTTP2StatusThatIsNotThreeDigitsFrom100To999IsStoppedBeforeTheCodec(status: String) throws {
        let channel = try http2Stream()
        #expect(throws: InvalidStatusCode(status: status)) { try channel.writeInbound(headers(status)) }
        _ = try? channel.writeInbound(
            HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(ByteBuffer(string: "{}")), endStream: true)))
        #expect(try channel.readInbound(as: HTTPClientResponsePart.self) == nil)
        #expect(!channel.isActive)
    }

    @Test func aMissingHTTP2StatusIsStoppedToo() throws {
        let channel = try http2Stream()
        #expect(throws: InvalidStatusCode(status: "")) { try channel.writeInbound(headers(nil)) }
    }

    @Test func aValidHTTP2ResponseWithAnInformationalHeadAndTrailersPassesThrough() throws {
        let channel = try http2Stream()
        try channel.writeInbound(headers("103"))
        try channel.writeInbound(headers("200"))
        try channel.writeInbound(HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(ByteBuffer(string: "{}")))))
        var trailers = HPACKHeaders()
        trailers.add(name: "x-checksum", value: "1")
        try channel.writeInbound(HTTP2Frame.FramePayload.headers(.init(headers: trailers, endStream: true)))
        var statuses: [UInt] = []
        var sawBody = false, sawEnd = false
        while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
            switch part {
            case .head(let head): statuses.append(head.status.code)
            case .body: sawBody = true
            case .end: sawEnd = true
            }
        }
        #expect(statuses == [103, 200])
        #expect(sawBody && sawEnd)
    }

    @Test func theHTTP2CodeParserAcceptsOnlyThreeDigits() {
        #expect(HTTP2StatusCodeGuard.code("200") == 200)
        #expect(HTTP2StatusCodeGuard.code("999") == 999)
        for bad in ["0", "000", "099", "1000", "-10", "2e2", "", "٢٠٠"] {
            #expect(HTTP2StatusCodeGuard.code(bad) == nil, "\(bad)")
        }
    }
}
