import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// A loopback TLS server (a fixed self-signed certificate: reach it with `insecure`) that completes the handshake,
/// offering the given ALPN protocols, and then plays raw bytes: for backends that misbehave *inside* TLS — silent
/// after the handshake, redirecting to plain http, flooding raw HTTP/2 frames — which the raw `HostileServer` cannot be.
final class TLSScriptServer: Sendable {
    /// What the server does once the client's first bytes arrive.
    enum Script: Sendable {
        /// Nothing: the connection stays open and silent until the server stops.
        case silent
        /// These bytes, then close.
        case reply([UInt8])
        /// `head`, then `frame` again and again until the client goes away or `limit` bytes were sent.
        case flood(head: [UInt8], frame: [UInt8], limit: Int)
    }

    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// Bytes sent by the flood, for tests that check the client stopped it early.
    var sent: Int { counter.bytes.load(ordering: .relaxed) }
    private let counter = Counter()

    private final class Counter: Sendable {
        let bytes = Atomic<Int>(0)
    }

    init(alpn: [String], _ script: Script) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(Self.certificate.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(Self.key.utf8), format: .pem)))
        tls.applicationProtocols = alpn
        let context = try NIOSSLContext(configuration: tls)
        let counter = self.counter
        do {
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { child in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                        try child.pipeline.syncOperations.addHandler(ScriptHandler(script: script, counter: counter))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        self.group = group
        port = channel.localAddress?.port ?? 0
    }

    var url: String { "https://127.0.0.1:\(port)" }

    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    private final class ScriptHandler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let script: Script
        let counter: Counter
        var started = false

        init(script: Script, counter: Counter) {
            self.script = script
            self.counter = counter
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !started else { return }
            started = true
            if case .reply(let bytes) = script {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes))).whenComplete { _ in
                    context.close(promise: nil)
                }
            }
            guard case .flood(let head, let frame, let limit) = script else { return }
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: head)), promise: nil)
            var batch = ByteBuffer()
            for _ in 0..<max(1, 65_536 / max(frame.count, 1)) { batch.writeBytes(frame) }
            flood(context, batch, left: limit)
        }

        /// One batch at a time, the next when the last is written: the server itself never buffers much.
        private func flood(_ context: ChannelHandlerContext, _ batch: ByteBuffer, left: Int) {
            guard left > 0, context.channel.isActive else { return }
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(batch)).whenSuccess { [self] in
                counter.bytes.add(batch.readableBytes, ordering: .relaxed)
                // On the loop's next turn: a write that completes at once would otherwise recurse until the stack
                // overflows.
                loopBound.value.eventLoop.execute { [self] in
                    flood(loopBound.value, batch, left: left - batch.readableBytes)
                }
            }
        }
    }

    // A self-signed P-256 certificate for localhost and 127.0.0.1, valid until 2126; test use only.
    static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIIBmjCCAUGgAwIBAgIUPqLzp3NSChW4vMS/QHPhwqvda4wwCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNzE5MTkwMVoYDzIxMjYxMTAz
        MTkxOTAxWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAASZthirT/A9MfhHAq7zsgg0FPXMiuLXx1vOG3DnfuBfMc7q6rmokb56
        v1CoYUE7VJjA5xxrqz2AUNgNHk8tLlc7o28wbTAdBgNVHQ4EFgQUq8pDpthR6BV9
        IJGHdcjV7NaipsUwHwYDVR0jBBgwFoAUq8pDpthR6BV9IJGHdcjV7NaipsUwDwYD
        VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
        zj0EAwIDRwAwRAIgGUm+uVQgx2SjVa69Eju+cESlOEDVU2pvM111Tsy7Zt8CIGJY
        0MBY4IwvvrBqlbzUwDNQW6mGBLxR2ECZPrej9ssx
        -----END CERTIFICATE-----
        """
    static let key = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4Y3Zf0mvWphD2ICd
        YPkknn5LbZsf8SZ6soTjJdUSztGhRANCAASZthirT/A9MfhHAq7zsgg0FPXMiuLX
        x1vOG3DnfuBfMc7q6rmokb56v1CoYUE7VJjA5xxrqz2AUNgNHk8tLlc7
        -----END PRIVATE KEY-----
        """
}
