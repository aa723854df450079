import FlowSpecRuntime
import Foundation
import HostileBackend
import Testing

@testable import FlowSpecHTTP

/// `--follow-redirects`, hop by hop, the same through both clients: credentials never cross to another origin, a
/// Location that is no usable URL is a clear error, and a hop that fails is named.
@Suite(.serialized, .timeLimit(.minutes(3))) struct RedirectTests {
    static let password = "hunter2-P4ssw0rd!"
    static let secrets = [
        "Bearer s3cr3t-bearer", "apikey-V4lue-1", "xapikey-V4lue-2", "sid=c00kie-V4lue", "pr0xy-V4lue",
        "x-s3ss10n-V4lue", password,
    ]

    /// A POST carrying every kind of credential: the Authorization, Cookie and API-key headers, a custom header,
    /// and a password in its JSON body.
    func login(to url: String) -> FlowSpecRuntime.HTTPRequest {
        FlowSpecRuntime.HTTPRequest(
            method: "POST", baseURL: url, path: "/login",
            headers: [
                ("Authorization", Self.secrets[0]), ("apikey", Self.secrets[1]), ("X-API-Key", Self.secrets[2]),
                ("Cookie", Self.secrets[3]), ("Proxy-Authorization", Self.secrets[4]), ("X-Session", Self.secrets[5]),
                ("Accept", "application/json"), ("Content-Type", "application/json"),
            ],
            body: Data(#"{"email":"qa@example.com","password":"\#(Self.password)"}"#.utf8))
    }

    func options() -> LiveHTTPOptions {
        var o = LiveHTTPOptions()
        o.connectTimeout = 10
        o.requestTimeout = 10
        o.followRedirects = true
        return o
    }

    func send(_ request: FlowSpecRuntime.HTTPRequest, via route: Route) async -> Result<
        FlowSpecRuntime.HTTPResponse, TransportError
    > {
        let adapter = LiveHTTPAdapter(options: options())
        let (result, tookPlain) = await route.send(request, with: adapter)
        #expect(tookPlain == (route == .plain), "the request did not go through the \(route.rawValue) client")
        await adapter.shutdown()
        return result
    }

    static let landed = HostileServer.Step.send(
        "HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nlanded")

    /// A redirect to another origin (another port) carries no credential header and no body, whatever the status.
    @Test(arguments: [301, 302, 303, 307, 308], Route.allCases)
    func aRedirectToAnotherOriginCarriesNoCredential(status: Int, route: Route) async throws {
        let target = try HostileServer([Self.landed])
        defer { target.stop() }
        let origin = try HostileServer([
            .send(
                "HTTP/1.1 \(status) Moved\r\nLocation: \(target.url)/next\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
        ])
        defer { origin.stop() }
        let response = try await send(login(to: origin.url), via: route).get()
        #expect(String(decoding: response.body, as: UTF8.self) == "landed")
        let arrived = try #require(target.requests.first)
        #expect(arrived.path == "/next")
        #expect(arrived.head.hasPrefix(status == 307 || status == 308 ? "POST " : "GET "), "\(arrived.head)")
        for secret in Self.secrets {
            #expect(!arrived.head.contains(secret), "\(status) sent on \(secret): \(arrived.head)")
        }
        #expect(arrived.body.isEmpty, "\(status) sent the body on: \(String(decoding: arrived.body, as: UTF8.self))")
        #expect(arrived.head.contains("Accept: application/json"), "\(arrived.head)")
        // The first hop did carry them all.
        #expect(origin.requests.first?.head.contains(Self.secrets[1]) == true)
    }

    /// Within one origin a 307 is the same request again: credentials and body go with it.
    @Test(arguments: Route.allCases) func aRedirectWithinTheOriginKeepsTheRequest(route: Route) async throws {
        let server = try HostileServer { request in
            request.path == "/login"
                ? [.send("HTTP/1.1 307 Again\r\nLocation: /login2\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")]
                : [Self.landed]
        }
        defer { server.stop() }
        _ = try await send(login(to: server.url), via: route).get()
        let second = try #require(server.requests.dropFirst().first)
        #expect(second.head.hasPrefix("POST /login2 "))
        #expect(second.head.contains(Self.secrets[0]) && second.head.contains(Self.secrets[2]))
        #expect(String(decoding: second.body, as: UTF8.self).contains(Self.password))
    }

    /// NIO traps on such a port; the resolver wraps it (99999 is port 34463) and the plain client sent there.
    @Test(arguments: ["http://127.0.0.1:99999/x", "http://127.0.0.1:65536/x", "http://127.0.0.1:0/x"], Route.allCases)
    func aRedirectToAPortOutsideTheRangeIsAnInvalidResponse(location: String, route: Route) async throws {
        let server = try HostileServer([
            .send("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        ])
        defer { server.stop() }
        let request = login(to: server.url)
        guard case .failure(let error) = await send(request, via: route) else {
            Issue.record("followed the redirect to \(location)")
            return
        }
        #expect(error.kind == .invalidResponse, "\(error)")
        #expect(error.url == request.url)
        #expect(error.cause.contains("is outside 1–65535"), "\(error)")
        #expect(error.cause.contains("302 redirect goes to http://127.0.0.1:"), "\(error)")
        #expect(server.requests.count == 1)
    }

    /// The adapter itself refuses such a URL, before NIO (a trap) or the resolver (a wrapped port) sees it.
    @Test(arguments: Route.allCases) func aURLWithAPortOutsideTheRangeIsNotSent(route: Route) async throws {
        let request = login(to: "http://127.0.0.1:99999")
        let adapter = LiveHTTPAdapter(options: options())
        let (result, _) = await route.send(request, with: adapter)
        await adapter.shutdown()
        guard case .failure(let error) = result else {
            Issue.record("sent to port 99999")
            return
        }
        #expect(error.kind == .notSent, "\(error)")
        #expect(error.cause.contains("the port 99999 is outside 1–65535"), "\(error)")
    }

    /// A refused hop names the URL that refused and the redirect that led there, not only the first URL.
    @Test(arguments: Route.allCases) func aRedirectTargetThatRefusesIsNamed(route: Route) async throws {
        let server = try HostileServer([
            .send(
                "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:9/gone\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
        ])
        defer { server.stop() }
        let request = login(to: server.url)
        guard case .failure(let error) = await send(request, via: route) else {
            Issue.record("port 9 answered")
            return
        }
        #expect(error.kind == .refused, "\(error)")
        #expect(error.url == "http://127.0.0.1:9/gone", "\(error)")
        #expect(error.cause.contains("after a 302 redirect from \(request.url)"), "\(error)")
        for secret in Self.secrets { #expect(!error.description.contains(secret)) }
    }

    /// A redirect to another scheme (an app's callback) is the answer: the flow reads the code from its Location.
    @Test(arguments: Route.allCases) func aRedirectToAnotherSchemeIsNotFollowed(route: Route) async throws {
        let server = try HostileServer([
            .send(
                "HTTP/1.1 302 Found\r\nLocation: myapp://callback?code=abc\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
        ])
        defer { server.stop() }
        let response = try await send(login(to: server.url), via: route).get()
        #expect(response.status == 302)
        #expect(response.header("Location") == "myapp://callback?code=abc")
    }
}
