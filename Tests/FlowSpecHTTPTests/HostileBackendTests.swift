import FlowSpecLanguage
import FlowSpecRuntime
import Foundation
import HostileBackend
import Testing

@testable import FlowSpecHTTP

/// No backend can crash or hang flowspec: each test is one way a server misbehaves, through the live adapter with
/// small timeouts. A failure must be a classified `TransportError` naming the URL and the cause — and never showing
/// the request's secrets, which every request here carries. Time bounds sit far from both outcomes: the machine
/// running these has 2 loaded cores.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HostileBackendTests {
    static let token = "s3cr3t-token-value"
    static let password = "hunter2-P4ssw0rd!"

    func options(_ change: (inout LiveHTTPOptions) -> Void = { _ in }) -> LiveHTTPOptions {
        var o = LiveHTTPOptions()
        o.connectTimeout = 10
        o.requestTimeout = 20
        change(&o)
        return o
    }

    /// Sends the secret-carrying request to `server` with a fresh adapter, through the client `route` names, shut
    /// down whatever happens, and stops the server.
    func send(
        via route: Route = .pooled, to server: HostileServer, path: String = "/api/auth/login",
        _ options: LiveHTTPOptions
    ) async
        -> (Result<FlowSpecRuntime.HTTPResponse, TransportError>, url: String, seconds: Double)
    {
        defer { server.stop() }
        let adapter = LiveHTTPAdapter(options: options)
        let request = FlowSpecRuntime.HTTPRequest(
            method: "POST", baseURL: server.url, path: path,
            headers: [("Authorization", "Bearer \(Self.token)"), ("Content-Type", "application/json")],
            body: Data(#"{"email":"qa@example.com","password":"\#(Self.password)"}"#.utf8))
        let clock = ContinuousClock()
        let started = clock.now
        let result: Result<FlowSpecRuntime.HTTPResponse, TransportError>
        result = await route.sendPlainHTTP(request, with: adapter)
        let elapsed = clock.now - started
        await adapter.shutdown()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (result, request.url, seconds)
    }

    /// The failure is of `kind`, names the URL, says `cause`, and shows neither secret — which did go out on the wire.
    @discardableResult
    func expectFailure(
        _ outcome: (Result<FlowSpecRuntime.HTTPResponse, TransportError>, url: String, seconds: Double),
        _ kind: TransportError.Kind, cause: String, server: HostileServer,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> TransportError? {
        guard case .failure(let error) = outcome.0 else {
            Issue.record("expected a \(kind) failure, got a response: \(outcome.0)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(error.url == outcome.url, sourceLocation: sourceLocation)
        #expect(error.description.contains(outcome.url), "\(error)", sourceLocation: sourceLocation)
        #expect(error.cause.contains(cause), "\(error)", sourceLocation: sourceLocation)
        for secret in [Self.token, Self.password] {
            #expect(!error.description.contains(secret), "\(error)", sourceLocation: sourceLocation)
        }
        #expect(
            server.requests.first?.head.contains("Bearer \(Self.token)") == true, "the secret was sent",
            sourceLocation: sourceLocation)
        return error
    }

    func response(
        _ outcome: (Result<FlowSpecRuntime.HTTPResponse, TransportError>, url: String, seconds: Double),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> FlowSpecRuntime.HTTPResponse {
        switch outcome.0 {
        case .success(let response): return response
        case .failure(let error):
            Issue.record("expected a response, got \(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    // MARK: Nothing, or not enough

    @Test(arguments: Route.allCases) func closingWithoutSendingAByteIsAClassifiedError(route: Route) async throws {
        let server = try HostileServer([])
        expectFailure(
            await send(via: route, to: server, options()), .other, cause: "closed the connection without answering",
            server: server)
    }

    @Test(arguments: Route.allCases) func halfTheHeadersThenCloseIsAClassifiedError(route: Route) async throws {
        let server = try HostileServer(reply: "HTTP/1.1 200 OK\r\nContent-Type: application/js")
        expectFailure(
            await send(via: route, to: server, options()), .truncated, cause: "in the middle of the response head",
            server: server)
    }

    @Test(arguments: Route.allCases) func aBodyShorterThanItsContentLengthIsTruncated(route: Route) async throws {
        let server = try HostileServer(
            reply: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: application/json\r\n\r\n{\"access_token\":")
        expectFailure(
            await send(via: route, to: server, options()), .truncated, cause: "before the whole body arrived",
            server: server)
    }

    // MARK: Not HTTP

    @Test(arguments: Route.allCases) func anInvalidChunkSizeIsAnInvalidResponse(route: Route) async throws {
        let server = try HostileServer(
            reply: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nhello\r\n0\r\n\r\n")
        expectFailure(
            await send(via: route, to: server, options()), .invalidResponse, cause: "invalid chunk size", server: server
        )
    }

    @Test(arguments: Route.allCases) func aGarbageStatusLineIsAnInvalidResponse(route: Route) async throws {
        let server = try HostileServer(reply: "GARBAGE \u{1}\u{2} NOT HTTP\r\n\r\n")
        expectFailure(
            await send(via: route, to: server, options()), .invalidResponse,
            cause: "does not begin with an HTTP/1.x status line", server: server)
    }

    /// AsyncHTTPClient 1.37.0 stops the whole process on these (SIGILL) without `StatusCodeGuard`.
    @Test(arguments: ["000", "050", "099"], Route.allCases)
    func aStatusBelow100IsAnInvalidResponseNotACrash(status: String, route: Route) async throws {
        let server = try HostileServer(reply: "HTTP/1.1 \(status) Zero\r\nContent-Length: 0\r\n\r\n")
        let code = String(Int(status)!)
        expectFailure(
            await send(via: route, to: server, options()), .invalidResponse,
            cause: "the server answered with status \(code), which is not an HTTP status code (100–999)", server: server
        )
    }

    @Test(arguments: Route.allCases) func aStatusBelow100WithABodyOnAKeptAliveConnectionIsAnInvalidResponseToo(
        route: Route
    ) async throws {
        let server = try HostileServer([
            .send("HTTP/1.1 000 Zero\r\nContent-Length: 5\r\n\r\nhello"), .pause(seconds: 30),
        ])
        expectFailure(
            await send(via: route, to: server, options()), .invalidResponse, cause: "status 0,", server: server)
    }

    @Test(arguments: Route.allCases) func aStatusAbove999IsAnInvalidResponse(route: Route) async throws {
        let server = try HostileServer(reply: "HTTP/1.1 1000 X\r\nContent-Length: 0\r\n\r\n")
        expectFailure(
            await send(via: route, to: server, options()), .invalidResponse, cause: "no valid status code",
            server: server)
    }

    @Test(arguments: Route.allCases) func anHTTP09AnswerWithoutAStatusLineIsAnInvalidResponse(route: Route) async throws
    {
        let server = try HostileServer(reply: #"{"access_token":"abc"}"#)
        expectFailure(
            await send(via: route, to: server, options()), .invalidResponse,
            cause: "does not begin with an HTTP/1.x status line", server: server)
    }

    /// A lone informational head is not an answer: AsyncHTTPClient waits for the real one, and the close ends it.
    @Test(arguments: Route.allCases) func aBareInformationalHeadThenCloseIsAClassifiedError(route: Route) async throws {
        let server = try HostileServer(reply: "HTTP/1.1 150 X\r\n\r\n")
        expectFailure(
            await send(via: route, to: server, options()), .other, cause: "closed the connection without answering",
            server: server)
    }

    @Test(arguments: Route.allCases) func anInformationalHeadThenSilenceIsATimeout(route: Route) async throws {
        let server = try HostileServer([.send("HTTP/1.1 150 X\r\n\r\n"), .pause(seconds: 30)])
        let outcome = await send(via: route, to: server, options { $0.requestTimeout = 1.5 })
        expectFailure(outcome, .timeout, cause: "--request-timeout", server: server)
        #expect(outcome.seconds < 20, "\(outcome.seconds) s")
    }

    /// 101 ends the HTTP exchange: the flow sees a 101 with no body, and whatever follows on the wire is not read.
    @Test(arguments: Route.allCases) func switchingProtocolsIsAResponseWithoutABody(route: Route) async throws {
        let server = try HostileServer([
            .send(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\u{81}\u{5}hello"),
            .pause(seconds: 30),
        ])
        let outcome = await send(via: route, to: server, options { $0.requestTimeout = 5 })
        let answer = try response(outcome)
        #expect(answer.status == 101)
        #expect(answer.body.isEmpty)
        #expect(outcome.seconds < 20, "\(outcome.seconds) s")
    }

    // MARK: Too slow, too much, too many

    @Test(arguments: Route.allCases) func thirtySecondsOfSilenceIsATimeoutNearTheConfiguredBound(route: Route)
        async throws
    {
        // The silence is long so the upper bound can be generous on a loaded machine and still prove the timeout.
        let server = try HostileServer([.pause(seconds: 30)])
        let outcome = await send(via: route, to: server, options { $0.requestTimeout = 1.5 })
        expectFailure(outcome, .timeout, cause: "no complete response within 1.5 s", server: server)
        #expect(outcome.seconds >= 1.4, "not before the bound: \(outcome.seconds) s")
        #expect(outcome.seconds < 20, "well before the silence ends: \(outcome.seconds) s")
    }

    /// A TLS handshake the server never answers: the request ends at its timeout, and so does the whole run —
    /// shutting the adapter down must not wait for the abandoned connection attempt.
    @Test func aSilentTLSServerEndsTheRunAtTheRequestTimeout() async throws {
        let server = try HostileServer([.pause(seconds: 30)])
        defer { server.stop() }
        let adapter = LiveHTTPAdapter(options: options { $0.requestTimeout = 1 })
        let clock = ContinuousClock()
        let started = clock.now
        let result: Result<FlowSpecRuntime.HTTPResponse, TransportError>
        do {
            result = .success(
                try await adapter.send(.init(method: "GET", baseURL: "https://127.0.0.1:\(server.port)", path: "/")))
        } catch { result = .failure(error) }
        let answered = clock.now - started
        await adapter.shutdown()
        let total = clock.now - started
        guard case .failure(let error) = result else {
            Issue.record("a silent server answered")
            return
        }
        #expect(error.kind == .timeout, "\(error)")
        #expect(answered < .seconds(3), "\(answered)")
        #expect(total < .seconds(3), "the run ended \(total) after it began, \(total - answered) of it shutting down")
    }

    @Test(arguments: Route.allCases) func aHeadDrippingOneBytePerSecondEndsAtTheRequestTimeout(route: Route)
        async throws
    {
        let server = try HostileServer([.drip(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8), every: 1)])
        let outcome = await send(via: route, to: server, options { $0.requestTimeout = 2 })
        expectFailure(outcome, .timeout, cause: "--request-timeout", server: server)
        #expect(outcome.seconds < 20, "the drip lasts 40 s: \(outcome.seconds) s")
    }

    /// AsyncHTTPClient's deadline stops at the head; `BodyDeadline` bounds the body by what is left of the timeout.
    @Test(arguments: Route.allCases) func aBodyDrippingOneBytePerSecondEndsAtTheRequestTimeout(route: Route)
        async throws
    {
        let body = String(repeating: "x", count: 60)
        let server = try HostileServer([
            .send("HTTP/1.1 200 OK\r\nContent-Length: 60\r\n\r\n"), .drip(Array(body.utf8), every: 1),
        ])
        let outcome = await send(via: route, to: server, options { $0.requestTimeout = 2 })
        expectFailure(outcome, .timeout, cause: "no complete response within 2 s", server: server)
        #expect(outcome.seconds >= 1.9, "not before the bound: \(outcome.seconds) s")
        #expect(outcome.seconds < 20, "the drip lasts 60 s: \(outcome.seconds) s")
    }

    @Test(arguments: Route.allCases) func aBodyOverTheCapIsTooLarge(route: Route) async throws {
        let server = try HostileServer(
            reply: "HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "x", count: 5000))
        expectFailure(
            await send(via: route, to: server, options { $0.maxBodyBytes = 1000 }), .tooLarge, cause: "1000-byte limit",
            server: server)
    }

    @Test(arguments: Route.allCases) func aChunkedBodyOverTheCapIsTooLarge(route: Route) async throws {
        let chunk = String(repeating: "x", count: 0x400)
        let server = try HostileServer(
            reply: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + String(repeating: "400\r\n\(chunk)\r\n", count: 5) + "0\r\n\r\n")
        expectFailure(
            await send(via: route, to: server, options { $0.maxBodyBytes = 1000 }), .tooLarge, cause: "1000-byte limit",
            server: server)
    }

    /// 326 bytes of gzip that inflate to 300,000: past the limit once decompressed, which is too large, not truncated.
    @Test(arguments: Route.allCases) func aGzipBombIsTooLarge(route: Route) async throws {
        let gzip = Data(
            base64Encoded:
                "H4sIAAAAAAACA+3BAQ0AAADCoErvn84eDigAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAPgxzc5JBeCTBAA="
        )!
        let head = Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(gzip.count)\r\n\r\n".utf8)
        let server = try HostileServer([.send(head + Array(gzip))])
        expectFailure(
            await send(via: route, to: server, options { $0.maxBodyBytes = 100_000 }), .tooLarge,
            cause: "decompressed, is larger than the 100000-byte limit", server: server)
    }

    @Test(arguments: Route.allCases) func aRedirectLoopIsAClassifiedErrorNotAnEndlessLoop(route: Route) async throws {
        let server = try HostileServer(
            reply: "HTTP/1.1 302 Found\r\nLocation: /api/auth/login\r\nContent-Length: 0\r\n\r\n")
        let outcome = await send(via: route, to: server, options { $0.followRedirects = true })
        expectFailure(outcome, .other, cause: "redirects go round in a loop", server: server)
    }

    @Test(arguments: Route.allCases) func redirectsWithoutEndStopAfterFive(route: Route) async throws {
        let server = try HostileServer { request in
            let next = (Int(request.path.split(separator: "/").last ?? "") ?? 0) + 1
            return [
                .send(
                    "HTTP/1.1 307 Temporary Redirect\r\nLocation: /hop/\(next)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                )
            ]
        }
        let outcome = await send(via: route, to: server, path: "/hop/0", options { $0.followRedirects = true })
        expectFailure(outcome, .other, cause: "more than 5 redirects", server: server)
        #expect(server.requests.count <= 7, "\(server.requests.count) requests")
    }

    // MARK: Bodies that are not JSON after all

    /// Not a transport failure: a response whose body, not being JSON, is its text.
    @Test(arguments: Route.allCases) func invalidJSONWithAJSONContentTypeIsAnUnparsedBody(route: Route) async throws {
        let text = #"{"access_token": "abc", }"#
        let server = try HostileServer(
            reply:
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)"
        )
        let answer = try response(await send(via: route, to: server, options()))
        #expect(answer.status == 200)
        #expect(answer.json == .string(text))
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parsing(answer.body) }
        #expect(try evaluate("exists(body.access_token)", answer) == .bool(false))
    }

    /// The parser keeps nesting on a heap stack and stops at 512 levels: 100,000 is an unparsed body, not a stack overflow.
    @Test(arguments: Route.allCases) func JSONNested100000DeepIsAnUnparsedBodyNotAStackOverflow(route: Route)
        async throws
    {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let server = try HostileServer(
            reply:
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)"
        )
        let answer = try response(await send(via: route, to: server, options()))
        #expect(answer.json == .string(text))
        let refusal = #expect(throws: JSONSyntaxError.self) { try JSONValue.parsing(answer.body) }
        #expect(refusal?.message == "lists and objects nested deeper than 512 levels")
        #expect(try evaluate("exists(body[0])", answer) == .bool(false))
    }

    func evaluate(_ text: String, _ response: FlowSpecRuntime.HTTPResponse) throws -> JSONValue {
        let expr = try ExpressionParser.parse(text, at: FlowSpecLanguage.SourceLocation(file: "t", line: 1, column: 1))
            .get()
        var env = FlowSpecRuntime.Environment()
        env.response = response
        return try Evaluator.evaluate(expr, env)
    }
}
