import FlowSpecRuntime
import FlowSpecSandbox
import Foundation

/// How a test reaches the sandbox. The same test body runs in both (`@Test(arguments: SandboxTestMode.allCases)`),
/// as HummingbirdTesting's `.router` and `.live` do for one application.
package enum SandboxTestMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// In memory: each request goes straight to the sandbox's Hummingbird responders (HummingbirdTesting's
    /// `.router`), with no socket, no HTTP parsing and no connection pool. The fast mode, for what the sandbox answers.
    case router
    /// Over real loopback sockets: the sandbox started as `flowspec` starts it (`Sandbox.start`, both listeners on
    /// free ports) and every request sent with AsyncHTTPClient. For what only a socket shows (ports, HTTP framing).
    case live

    package var description: String { rawValue }
}

/// Runs test bodies against a fresh sandbox, in memory or live.
package enum SandboxTest {
    /// What the variables name as the sandbox's URLs in `.router` mode. Nothing listens there, and `.invalid` never
    /// resolves, so a request that escapes the in-memory transport fails instead of reaching some other server.
    package static let inMemoryBaseURL = "http://main.sandbox.invalid"
    package static let inMemoryLegacyURL = "http://legacy.sandbox.invalid"

    /// Starts a sandbox with `options` (host and ports only matter live), runs `body` against it, and stops it when
    /// `body` returns or throws. The backend `body` gets is also an `HTTPAdapter`, so flows can run against it.
    @discardableResult
    package static func run<T>(
        _ mode: SandboxTestMode, _ options: SandboxOptions = SandboxOptions(),
        _ body: (SandboxBackend) async throws -> T
    ) async throws -> T {
        switch mode {
        case .router:
            return try await InMemoryTransport.run(options) { transport, vars in
                try await body(
                    SandboxBackend(
                        mode: .router, baseURL: inMemoryBaseURL, legacyURL: inMemoryLegacyURL,
                        vars: vars, running: nil, transport: transport))
            }
        case .live:
            return try await SocketTransport.run(options) { transport, sandbox in
                try await body(
                    SandboxBackend(
                        mode: .live, baseURL: sandbox.baseURL, legacyURL: sandbox.legacyURL,
                        vars: sandbox.liveVars(), running: sandbox, transport: transport))
            }
        }
    }
}

/// One answer, as either transport read it whole.
package struct SandboxExchange: Sendable {
    package var status: Int
    /// As the transport got them: over a socket these include what the HTTP server adds (`content-length`, `date`).
    package var headers: [(String, String)]
    package var body: [UInt8]
}

/// What both transports do: send one request to a full URL and read the whole answer.
protocol SandboxTransport: Sendable {
    func exchange(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws
        -> SandboxExchange
}

/// A sandbox as a test sees it: its URLs and variables, a way to send requests, and an `HTTPAdapter` for flows.
package struct SandboxBackend: HTTPAdapter {
    package let mode: SandboxTestMode
    /// Repair Minder (`/api`), Supabase (`/auth/v1`), Traveling (`/v1`) and the outbox (`/__sandbox`).
    package let baseURL: String
    /// The legacy Repair Minder backend.
    package let legacyURL: String
    /// Every live-suite variable, as the sandbox would write them (docs/sandbox.md), pointing at `baseURL`/`legacyURL`.
    package let vars: [String: String]
    /// The started sandbox in `.live` mode (its ports, `stop()`); nil in `.router` mode, where nothing listens.
    package let running: RunningSandbox?
    let transport: any SandboxTransport

    /// Sends one request to a full URL (`baseURL` or `legacyURL` followed by a path and query) and reads the answer.
    package func exchange(
        _ method: String, _ url: String, headers: [(String, String)] = [],
        body: [UInt8]? = nil
    ) async throws -> SandboxExchange {
        try await transport.exchange(method: method, url: url, headers: headers, body: body)
    }

    /// The `HTTPAdapter` seam: a flow's request, as the interpreter built it, sent through this mode's transport.
    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let url = request.url
        do {
            let answer = try await exchange(
                request.method, url, headers: request.headers,
                body: request.body.map { Array($0) })
            return HTTPResponse(status: answer.status, headers: answer.headers, body: Data(answer.body))
        } catch let error as NotSent {
            throw TransportError(.notSent, url: url, cause: error.cause)
        } catch {
            throw TransportError(.other, url: url, cause: "\(error)")
        }
    }
}
