import AsyncHTTPClient
import FlowSpecSandbox
import NIOCore

/// `.live` mode: the sandbox started on loopback as `flowspec` starts it, and one AsyncHTTPClient for the test.
struct SocketTransport: SandboxTransport {
    let http: HTTPClient

    static func run<T>(
        _ options: SandboxOptions,
        _ body: (SocketTransport, RunningSandbox) async throws -> T
    ) async throws -> T {
        let sandbox = try await Sandbox.start(options)
        // 50 parallel sign-ins queue for pooled connections; on a loaded 2-core machine the default 10 s wait for one
        // ran out (getConnectionFromPoolTimeout). More connections per host and a longer wait keep the test about
        // the sandbox.
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(60)))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await body(SocketTransport(http: http), sandbox)
            try await http.shutdown()
            await sandbox.stop()
            return result
        } catch {
            try? await http.shutdown()
            await sandbox.stop()
            throw error
        }
    }

    func exchange(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws
        -> SandboxExchange
    {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        // A healthy sandbox answers in milliseconds; the whole suite on two cores (50 parallel sign-ins among
        // hundreds of other tests) once needed more than 10 s just to get a pooled connection.
        let response = try await http.execute(request, timeout: .seconds(60))
        let collected = try await response.body.collect(upTo: 1 << 20)
        return SandboxExchange(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
            body: Array(collected.readableBytesView))
    }
}

extension SandboxBackend {
    /// A sandbox the test started itself, reached through the test's own client: for tests of how the sandbox treats
    /// connections (a keep-alive client at `stop()`). The test shuts both down.
    package static func live(_ sandbox: RunningSandbox, http: HTTPClient) -> SandboxBackend {
        SandboxBackend(
            mode: .live, baseURL: sandbox.baseURL, legacyURL: sandbox.legacyURL, vars: sandbox.liveVars(),
            running: sandbox, transport: SocketTransport(http: http))
    }
}
