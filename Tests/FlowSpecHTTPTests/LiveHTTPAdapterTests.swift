import FlowSpecLanguage
import FlowSpecRuntime
import Foundation
import Hummingbird
import Logging
import Testing

@testable import FlowSpecHTTP

/// The live adapter against real sockets: a Hummingbird server for well-formed answers, a raw server for
/// broken ones, and addresses where nothing answers at all.
@Suite(.serialized, .timeLimit(.minutes(5))) struct LiveHTTPAdapterTests {
    /// Starts a Hummingbird app on a free port for the duration of `body`.
    func withServer(_ router: Router<BasicRequestContext>, _ body: (Int) async throws -> Void) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            var ports = stream.makeAsyncIterator()
            let port = await ports.next() ?? 0
            try await body(port)
            group.cancelAll()
        }
    }

    func options(_ change: (inout LiveHTTPOptions) -> Void = { _ in }) -> LiveHTTPOptions {
        var o = LiveHTTPOptions()
        // Far from a healthy local answer (about a millisecond) even on a loaded machine, where 2 s once timed out;
        // the tests about timeouts set their own.
        o.connectTimeout = 10
        o.requestTimeout = 20
        change(&o)
        return o
    }

    /// The adapter is always shut down, even when an expectation throws: AsyncHTTPClient traps otherwise.
    func withAdapter(_ options: LiveHTTPOptions, _ body: (LiveHTTPAdapter) async throws -> Void) async throws {
        let adapter = LiveHTTPAdapter(options: options)
        do { try await body(adapter) } catch {
            await adapter.shutdown()
            throw error
        }
        await adapter.shutdown()
    }

    func request(_ url: String, headers: [(String, String)] = []) -> FlowSpecRuntime.HTTPRequest {
        let parts = URLComponents(string: url)!
        let base = "\(parts.scheme!)://\(parts.host!)" + (parts.port.map { ":\($0)" } ?? "")
        return FlowSpecRuntime.HTTPRequest(
            method: "GET", baseURL: base, path: parts.path.isEmpty ? "/" : parts.path, headers: headers)
    }

    /// A plain `http://` GET through the client `route` names.
    func send(
        _ adapter: LiveHTTPAdapter, _ url: String, headers: [(String, String)] = [], via route: Route,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> Result<FlowSpecRuntime.HTTPResponse, TransportError> {
        await route.sendPlainHTTP(request(url, headers: headers), with: adapter, sourceLocation: sourceLocation)
    }

    /// A request only AsyncHTTPClient may send (TLS, a proxy), from wherever `route` says.
    func sendPooledOnly(
        _ adapter: LiveHTTPAdapter, _ url: String, via route: Route,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> Result<FlowSpecRuntime.HTTPResponse, TransportError> {
        let (result, tookPlain) = await route.send(request(url), with: adapter)
        #expect(
            !tookPlain, "the plain-HTTP client sent a request it must leave to AsyncHTTPClient",
            sourceLocation: sourceLocation)
        return result
    }

    func failureKind(_ result: Result<FlowSpecRuntime.HTTPResponse, TransportError>) -> TransportError.Kind? {
        if case .failure(let e) = result { return e.kind }
        return nil
    }

    @Test(arguments: Route.allCases) func answersComeBackWithStatusHeadersAndParsedJSONAndOurUserAgent(route: Route)
        async throws
    {
        let router = Router()
        router.get("/echo") { request, _ -> Response in
            let ua = request.headers[.userAgent] ?? ""
            return Response(
                status: .created, headers: [.contentType: "application/json", .init("X-Seen")!: ua],
                body: .init(byteBuffer: .init(string: #"{"ok":true}"#)))
        }
        try await withServer(router) { port in
            try await withAdapter(options()) { adapter in
                let response = try await send(adapter, "http://127.0.0.1:\(port)/echo", via: route).get()
                #expect(response.status == 201)
                #expect(response.json == .object(["ok": .bool(true)]))
                #expect(response.header("x-seen")?.hasPrefix("flowspec/") == true)
                let own = try await send(
                    adapter, "http://127.0.0.1:\(port)/echo",
                    headers: [("User-Agent", "RepairMinder-iOS/1.0 (iPhone)")], via: route
                ).get()
                #expect(own.header("x-seen") == "RepairMinder-iOS/1.0 (iPhone)")
            }
        }
    }

    /// `body` as a flow's expression reads it from a real answer.
    func evaluate(_ text: String, _ response: FlowSpecRuntime.HTTPResponse) throws -> JSONValue {
        let expr = try ExpressionParser.parse(text, at: SourceLocation(file: "t", line: 1, column: 1)).get()
        var env = FlowSpecRuntime.Environment()
        env.response = response
        return try Evaluator.evaluate(expr, env)
    }

    /// A mail catcher's `text/plain` code is the text it sent, not the number 12345; only JSON media types are parsed.
    @Test(arguments: Route.allCases) func bodiesAreJSONOnlyWhenTheContentTypeSaysSo(route: Route) async throws {
        let router = Router()
        router.get("/code") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: .init(string: "012345")))
        }
        router.get("/html") { _, _ in
            Response(status: .ok, headers: [.contentType: "TEXT/HTML"], body: .init(byteBuffer: .init(string: "12345")))
        }
        router.get("/json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: .init(string: #"{"code":"012345","n":12345,"ok":true}"#)))
        }
        router.get("/problem") { _, _ in
            Response(
                status: .notFound, headers: [.contentType: "application/problem+json"],
                body: .init(byteBuffer: .init(string: #"{"title":"Not Found","status":404}"#)))
        }
        try await withServer(router) { port in
            try await withAdapter(options()) { adapter in
                let code = try await send(adapter, "http://127.0.0.1:\(port)/code", via: route).get()
                #expect(code.json == .string("012345"))
                #expect(try evaluate(#"body == "012345""#, code) == .bool(true))
                #expect(try evaluate("len(body)", code) == .number(6))
                #expect(
                    try await send(adapter, "http://127.0.0.1:\(port)/html", via: route).get().json == .string("12345"))
                let json = try await send(adapter, "http://127.0.0.1:\(port)/json", via: route).get()
                #expect(
                    try evaluate(#"body.code == "012345" && body.n == 12345 && body.ok == true"#, json) == .bool(true))
                let problem = try await send(adapter, "http://127.0.0.1:\(port)/problem", via: route).get()
                #expect(try evaluate("body.status", problem) == .number(404))
            }
        }
    }

    /// No Content-Type at all: the body is text, exactly as sent (flowspec does not sniff).
    @Test(arguments: Route.allCases) func aBodyWithoutAContentTypeIsText(route: Route) async throws {
        let server = try RawServer(reply: Array("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{\"n\":12345}".utf8))
        defer { server.stop() }
        try await withAdapter(options()) { adapter in
            let response = try await send(adapter, "http://127.0.0.1:\(server.port)/", via: route).get()
            #expect(response.header("content-type") == nil)
            #expect(response.json == .string(#"{"n":12345}"#))
        }
    }

    @Test(arguments: Route.allCases) func redirectsAreShownNotFollowedUnlessAsked(route: Route) async throws {
        let router = Router()
        router.get("/old") { _, _ in Response(status: .found, headers: [.location: "/new"]) }
        router.get("/new") { _, _ in "arrived" }
        try await withServer(router) { port in
            try await withAdapter(options()) { plain in
                let shown = try await send(plain, "http://127.0.0.1:\(port)/old", via: route).get()
                #expect(shown.status == 302)
                #expect(shown.header("location") == "/new")
            }
            try await withAdapter(options { $0.followRedirects = true }) { following in
                // Followed hop by hop by the adapter, so through the client the route names.
                let followed = try await send(following, "http://127.0.0.1:\(port)/old", via: route).get()
                #expect(followed.status == 200)
                #expect(String(decoding: followed.body, as: UTF8.self) == "arrived")
            }
        }
    }

    @Test(arguments: Route.allCases) func aSlowBackendIsATimeoutAndAHugeBodyIsTooLarge(route: Route) async throws {
        let router = Router()
        router.get("/slow") { _, _ -> String in
            try await Task.sleep(for: .seconds(3))
            return "late"
        }
        router.get("/huge") { _, _ in String(repeating: "x", count: 300_000) }
        try await withServer(router) { port in
            try await withAdapter(
                options {
                    $0.requestTimeout = 0.5; $0.maxBodyBytes = 100_000
                }
            ) { adapter in
                let slow = await send(adapter, "http://127.0.0.1:\(port)/slow", via: route)
                #expect(failureKind(slow) == .timeout)
                if case .failure(let e) = slow {
                    #expect(e.url == "http://127.0.0.1:\(port)/slow")
                    #expect(e.cause.contains("--request-timeout"))
                }
                #expect(failureKind(await send(adapter, "http://127.0.0.1:\(port)/huge", via: route)) == .tooLarge)
            }
        }
    }

    @Test(arguments: Route.allCases) func nothingListeningIsRefusedAndAnUnknownHostIsDNS(route: Route) async throws {
        try await withAdapter(options()) { adapter in
            let refused = await send(adapter, "http://127.0.0.1:9/api/auth/me", via: route)
            #expect(failureKind(refused) == .refused)
            if case .failure(let e) = refused { #expect(e.description.contains("http://127.0.0.1:9/api/auth/me")) }
            #expect(failureKind(await send(adapter, "http://flowspec-no-such-host.invalid/x", via: route)) == .dns)
        }
    }

    @Test(arguments: Route.allCases) func aBodyCutShortIsTruncated(route: Route) async throws {
        let server = try RawServer(
            reply: Array(
                "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: application/json\r\n\r\n{\"token\":".utf8))
        defer { server.stop() }
        try await withAdapter(options()) { adapter in
            #expect(failureKind(await send(adapter, "http://127.0.0.1:\(server.port)/", via: route)) == .truncated)
        }
    }

    @Test(arguments: Route.allCases) func tlsToAPlainServerIsATLSFailure(route: Route) async throws {
        let server = try RawServer(
            reply: Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8), replyToAnyBytes: true)
        defer { server.stop() }
        try await withAdapter(options()) { adapter in
            #expect(failureKind(await sendPooledOnly(adapter, "https://127.0.0.1:\(server.port)/", via: route)) == .tls)
        }
    }

    @Test(arguments: Route.allCases) func requestsGoThroughTheConfiguredProxyExceptNoProxyHosts(route: Route)
        async throws
    {
        let proxy = try RawServer(reply: Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
        defer { proxy.stop() }
        try await withAdapter(
            options {
                $0.environment = ["HTTP_PROXY": "http://127.0.0.1:\(proxy.port)", "NO_PROXY": "internal.example"]
            }
        ) { adapter in
            let viaProxy = try await sendPooledOnly(adapter, "http://staging.example.test/api/auth/me", via: route)
                .get()
            #expect(viaProxy.status == 200)
            #expect(proxy.requestHeads.first?.hasPrefix("CONNECT staging.example.test:80 HTTP/1.1") == true)
            #expect(proxy.requestHeads.last?.hasPrefix("GET /api/auth/me HTTP/1.1") == true)
            // NO_PROXY hosts go direct (and fail to resolve here), never through the proxy.
            #expect(failureKind(await send(adapter, "http://api.internal.example/x", via: route)) == .dns)
            #expect(proxy.requestHeads.count == 2)
        }
    }
}
