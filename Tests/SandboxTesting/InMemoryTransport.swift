import FlowSpecSandbox
import Hummingbird
import HummingbirdTesting
import NIOCore

/// `.router` mode: the sandbox's two applications, never started, each driven by HummingbirdTesting's router test
/// client, which hands a `Request` to the application's responder and collects its `Response` in memory.
struct InMemoryTransport: SandboxTransport {
    let main: any TestClientProtocol
    let legacy: any TestClientProtocol

    static func run<T>(
        _ options: SandboxOptions,
        _ body: (InMemoryTransport, [String: String]) async throws -> T
    ) async throws -> T {
        let sandbox = Sandbox.inMemory(
            options, baseURL: SandboxTest.inMemoryBaseURL,
            legacyURL: SandboxTest.inMemoryLegacyURL)
        // HummingbirdTesting takes a @Sendable test closure. Ours is called once, awaited in place, and never shared:
        // the box only carries it across that signature.
        return try await withoutActuallyEscaping(body) { body in
            let once = CalledOnce(body: body)
            return try await sandbox.main.test(.router) { main in
                try await sandbox.legacy.test(.router) { legacy in
                    try await once.body(InMemoryTransport(main: main, legacy: legacy), sandbox.vars)
                }
            }
        }
    }

    func exchange(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws
        -> SandboxExchange
    {
        guard let (client, uri) = route(url) else {
            throw NotSent(
                cause: "the in-memory sandbox answers only \(SandboxTest.inMemoryBaseURL) and "
                    + SandboxTest.inMemoryLegacyURL)
        }
        guard let httpMethod = HTTPRequest.Method(method) else {
            throw NotSent(cause: "not an HTTP method: \(method)")
        }
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let fieldName = HTTPFields.Element.Name(name) else {
                throw NotSent(cause: "not a header name: \(name)")
            }
            fields.append(HTTPFields.Element(name: fieldName, value: value))
        }
        let response = try await client.executeRequest(
            uri: uri, method: httpMethod, headers: fields,
            body: body.map { ByteBuffer(bytes: $0) })
        return SandboxExchange(
            status: response.status.code,
            headers: response.headers.map { ($0.name.canonicalName, $0.value) },
            body: Array(response.body.readableBytesView))
    }

    /// The client for `url`'s base URL and the rest of it (path and query), or nil for a URL of neither.
    private func route(_ url: String) -> (any TestClientProtocol, String)? {
        for (base, client) in [(SandboxTest.inMemoryBaseURL, main), (SandboxTest.inMemoryLegacyURL, legacy)] {
            guard url.hasPrefix(base) else { continue }
            let rest = String(url.dropFirst(base.count))
            if rest.isEmpty { return (client, "/") }
            if rest.hasPrefix("/") { return (client, rest) }
            if rest.hasPrefix("?") { return (client, "/" + rest) }
        }
        return nil
    }
}

/// A request the in-memory transport could not hand to either application; the adapter reports it as not sent.
struct NotSent: Error, CustomStringConvertible {
    let cause: String
    var description: String { cause }
}

private struct CalledOnce<Argument, Vars, T>: @unchecked Sendable {
    let body: (Argument, Vars) async throws -> T
}
