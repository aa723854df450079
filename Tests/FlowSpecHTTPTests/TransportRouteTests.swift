import FlowSpecLanguage
import FlowSpecRuntime
import Foundation
import Testing

@testable import FlowSpecHTTP

/// `TransportRoute.choose`, the one rule that picks the plain client or AsyncHTTPClient for a request: each kind of
/// URL by name, and random URLs against the rule as it was written before (twice, in `LiveHTTPAdapter.exchangeOnce`,
/// up to 33eb9dd), which it must reproduce exactly.
@Suite(.timeLimit(.minutes(5))) struct TransportRouteTests {
    /// What a route comes to, comparable: where the request goes and what goes on the wire.
    enum Outcome: Equatable, CustomStringConvertible {
        case plain(host: String, port: Int, uri: String, headers: [String], body: [UInt8]?)
        case pooled(proxy: ProxySettings.Server?)
        case refused(TransportError.Kind, String)

        init(_ route: () throws(TransportError) -> TransportRoute) {
            do throws(TransportError) {
                switch try route() {
                case .plain(let r):
                    self = .plain(
                        host: r.host, port: r.port, uri: r.head.uri,
                        headers: r.head.headers.map { "\($0.name): \($0.value)" },
                        body: r.body.map { Array($0.readableBytesView) })
                case .pooled(let r):
                    self = .pooled(proxy: r.proxy)
                }
            } catch {
                self = .refused(error.kind, error.cause)
            }
        }

        var description: String {
            switch self {
            case .plain(let host, let port, let uri, let headers, _): "plain \(host):\(port) \(uri) \(headers)"
            case .pooled(let proxy): "pooled via \(proxy.map { "\($0.host):\($0.port)" } ?? "no proxy")"
            case .refused(let kind, let cause): "refused (\(kind)): \(cause)"
            }
        }

        var isPlain: Bool { if case .plain = self { true } else { false } }
    }

    static let get = HTTPRequest(method: "GET", baseURL: nil, path: "/")
    static let userAgent = LiveHTTPOptions().userAgent

    func route(_ url: String, live: Bool = true, environment: [String: String] = [:], request: HTTPRequest = get)
        -> Outcome
    {
        Outcome { () throws(TransportError) in
            try TransportRoute.choose(
                request, url: url, onLiveThread: live, proxies: ProxySettings(environment: environment),
                userAgent: Self.userAgent)
        }
    }

    func host(of outcome: Outcome) -> String? {
        guard case .plain(_, _, _, let headers, _) = outcome else { return nil }
        return headers.first { $0.hasPrefix("host: ") }.map { String($0.dropFirst(6)) }
    }

    func uri(of outcome: Outcome) -> String? {
        guard case .plain(_, _, let uri, _, _) = outcome else { return nil }
        return uri
    }

    @Test func plainHTTPOnTheLiveThreadGoesToThePlainClient() {
        let outcome = route("http://127.0.0.1:8080/api/auth/login?next=%2Fa")
        #expect(outcome.isPlain, "\(outcome)")
        #expect(host(of: outcome) == "127.0.0.1:8080")
        #expect(uri(of: outcome) == "/api/auth/login?next=%2Fa")
        guard case .plain(let h, let port, _, _, _) = outcome else { return }
        #expect(h == "127.0.0.1" && port == 8080)
        // No port in the URL: port 80, and a Host header without one.
        let bare = route("http://api.example.test/x")
        guard case .plain(_, 80, "/x", _, _) = bare else { Issue.record("\(bare)"); return }
        #expect(host(of: bare) == "api.example.test")
        // The scheme in any case, read by Foundation.
        #expect(route("HTTP://127.0.0.1:8080/x").isPlain)
    }

    @Test func plainHTTPFromAnyOtherThreadGoesToAsyncHTTPClient() {
        #expect(route("http://127.0.0.1:8080/x", live: false) == .pooled(proxy: nil))
        #expect(route("http://127.0.0.1:8080/a#f", live: false) == .pooled(proxy: nil))
    }

    @Test func httpsGoesToAsyncHTTPClientEvenOnTheLiveThread() {
        #expect(route("https://127.0.0.1:8443/x") == .pooled(proxy: nil))
        #expect(
            route("https://api.example.test/x", environment: ["HTTPS_PROXY": "proxy.corp:3128"])
                == .pooled(proxy: .init(host: "proxy.corp", port: 3128)))
    }

    @Test func aHostBehindAProxyGoesThroughItsProxyClient() {
        let proxy = ["HTTP_PROXY": "http://proxy.corp:3128"]
        #expect(
            route("http://api.example.test/x", environment: proxy)
                == .pooled(proxy: .init(host: "proxy.corp", port: 3128)))
        #expect(
            route("http://api.example.test/a#f", environment: proxy)
                == .pooled(proxy: .init(host: "proxy.corp", port: 3128)))
        // An https proxy only: plain http is not proxied.
        #expect(route("http://api.example.test/x", environment: ["HTTPS_PROXY": "proxy.corp:3128"]).isPlain)
        // Loopback is never proxied.
        #expect(route("http://127.0.0.1:8080/x", environment: proxy).isPlain)
        #expect(route("http://localhost:8080/x", environment: proxy).isPlain)
    }

    @Test func aNoProxyHostGoesDirectThroughThePlainClient() {
        let environment = ["HTTP_PROXY": "proxy.corp:3128", "NO_PROXY": ".internal.example, other.test"]
        #expect(route("http://api.internal.example/x", environment: environment).isPlain)
        #expect(route("http://other.test:81/x", environment: environment).isPlain)
        #expect(
            route("http://api.example.test/x", environment: environment)
                == .pooled(proxy: .init(host: "proxy.corp", port: 3128)))
        #expect(
            route("http://api.example.test/x", environment: ["HTTP_PROXY": "proxy.corp:3128", "NO_PROXY": "*"]).isPlain)
    }

    /// The inconsistency the issue named: only one of the two copies said `!host.contains(":")`. The other read
    /// `PlainHTTPURL`, which never accepts `[`; so an IPv6 literal always went to AsyncHTTPClient, and still does.
    @Test func anIPv6LiteralHostGoesToAsyncHTTPClient() {
        #expect(PlainHTTPURL("http://[::1]:8080/x") == nil)
        #expect(route("http://[::1]:8080/x") == .pooled(proxy: nil))
        #expect(route("http://[2001:db8::1]/x") == .pooled(proxy: nil))
        #expect(
            route("http://[2001:db8::1]/x", environment: ["HTTP_PROXY": "proxy.corp:3128"])
                == .pooled(proxy: .init(host: "proxy.corp", port: 3128)))
        #expect(
            route("http://[::1]:8080/x", environment: ["HTTP_PROXY": "proxy.corp:3128"]) == .pooled(proxy: nil),
            "loopback is never proxied")
        #expect(
            route("http://[::1]:99999/x")
                == .refused(
                    .notSent,
                    "the port 99999 is outside 1–65535 — check the flow's base_url and the run variables it uses"))
    }

    /// Credentials in the URL are not sent by either client (`RequestURL.maskingCredentials` keeps them off screen);
    /// the plain client connects to the host after them.
    @Test func userInfoInTheURLIsReadByFoundationAndLeftOut() {
        let outcome = route("http://user:pw@127.0.0.1:8080/x?y=1")
        #expect(outcome.isPlain, "\(outcome)")
        #expect(host(of: outcome) == "127.0.0.1:8080")
        #expect(uri(of: outcome) == "/x?y=1")
        guard case .plain(_, _, _, let headers, _) = outcome else { return }
        #expect(!headers.contains { $0.lowercased().hasPrefix("authorization") })
    }

    @Test func aPortOutsideTheRangeIsRefusedBeforeEitherClient() {
        for live in [true, false] {
            #expect(
                route("http://127.0.0.1:99999/x", live: live)
                    == .refused(
                        .notSent,
                        "the port 99999 is outside 1–65535 — check the flow's base_url and the run variables it uses"))
            #expect(
                route("http://127.0.0.1:65536/x", live: live)
                    == .refused(
                        .notSent,
                        "the port 65536 is outside 1–65535 — check the flow's base_url and the run variables it uses"))
            #expect(
                route("http://127.0.0.1:0/x", live: live)
                    == .refused(
                        .notSent,
                        "the port 0 is outside 1–65535 — check the flow's base_url and the run variables it uses"))
            #expect(
                route("http://127.0.0.1:/x", live: live)
                    == .refused(
                        .notSent,
                        "the port after `:` is empty: write a port from 1 to 65535, or leave out the `:` — check the flow's base_url and the run variables it uses"
                    ))
        }
    }

    @Test func whatIsNoAbsoluteHTTPURLIsRefused() {
        let notAbsolute = Outcome.refused(
            .other, "not an absolute http(s) URL — check the flow's base_url and the run variables it uses")
        #expect(route("ftp://h/x") == notAbsolute)
        #expect(route("127.0.0.1:8080/x") == notAbsolute)
        #expect(route("/api/auth/login") == notAbsolute)
        #expect(route("") == notAbsolute)
    }

    /// Foundation gives the host in its IDNA form, which both the connection and the `Host` header use.
    @Test func aUnicodeHostIsReadByFoundationInItsASCIIForm() {
        #expect(PlainHTTPURL("http://bücher.example/x") == nil)
        let outcome = route("http://bücher.example/x")
        guard case .plain("xn--bcher-kva.example", 80, "/x", _, _) = outcome else { Issue.record("\(outcome)"); return }
        #expect(host(of: outcome) == "xn--bcher-kva.example")
    }

    @Test func aQueryIsSentAndAFragmentIsNot() {
        #expect(uri(of: route("http://127.0.0.1:8080/a?b=1&c=%2F")) == "/a?b=1&c=%2F")
        #expect(uri(of: route("http://127.0.0.1:8080/a?b=1#frag")) == "/a?b=1")
        #expect(uri(of: route("http://127.0.0.1:8080/#frag")) == "/")
        #expect(uri(of: route("http://127.0.0.1:8080?b=1")) == "/?b=1")
        // Text that needs encoding is encoded as Foundation does, as AsyncHTTPClient sends it.
        #expect(uri(of: route("http://127.0.0.1:8080/a?q=ä")) == "/a?q=%C3%A4")
        #expect(uri(of: route("http://127.0.0.1:8080/a b")) == "/a%20b")
    }

    /// What AsyncHTTPClient would refuse is left to it, so its refusal reads the same.
    @Test func aRequestOnlyAsyncHTTPClientMayRefuseGoesToIt() {
        var badHeader = Self.get
        badHeader.headers = [("X-Bad", "a\r\nInjected: 1")]
        #expect(route("http://127.0.0.1:8080/x", request: badHeader) == .pooled(proxy: nil))
        var trace = HTTPRequest(method: "TRACE", baseURL: nil, path: "/", body: Data("x".utf8))
        #expect(route("http://127.0.0.1:8080/x", request: trace) == .pooled(proxy: nil))
        trace.body = nil
        #expect(route("http://127.0.0.1:8080/x", request: trace).isPlain)
    }

    /// Random URLs, environments, threads and requests: the one routing function decides exactly as the two copies
    /// did before it. Seeded, so a failure can be replayed.
    @Test(arguments: 1...3) func theRouteIsTheOneTheTwoCopiesChose(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
        let environments: [[String: String]] = [
            [:], ["HTTP_PROXY": "proxy.corp:3128"], ["https_proxy": "http://proxy.corp:8443"],
            ["HTTP_PROXY": "proxy.corp:3128", "NO_PROXY": "example.test,[::1]"],
            ["HTTP_PROXY": "p:1", "HTTPS_PROXY": "q:2", "NO_PROXY": "*"],
        ]
        var badHeader = Self.get
        badHeader.headers = [("X-Bad", "a\nb")]
        let requests = [
            Self.get,
            HTTPRequest(
                method: "POST", baseURL: nil, path: "/", headers: [("Content-Type", "application/json")],
                body: Data("{}".utf8)),
            HTTPRequest(method: "TRACE", baseURL: nil, path: "/", body: Data("x".utf8)), badHeader,
            HTTPRequest(method: "GET", baseURL: nil, path: "/", headers: [("Host", "other.test")]),
        ]
        var plain = 0, pooled = 0, refused = 0
        for _ in 0..<3_000 {
            let url =
                pick([
                    "http://", "http://", "http://", "http://", "http://", "https://", "HTTP://", "Http://", "ftp://",
                    "http:/", "",
                ])
                + pick(["", "", "", "", "user:pw@", "u@"])
                + pick([
                    "127.0.0.1", "localhost", "api.example.test", "a.example.test", "H", "h_1", "[::1]",
                    "[2001:db8::1]", "bücher.example",
                    "xn--bcher-kva.example", "", "a..b", "h%41", "[::1",
                ])
                + pick([
                    "", "", "", "", "", ":8080", ":8080", ":8080", ":80", ":65535", ":65536", ":0", ":08", ":",
                    ":99999", ":8a",
                ])
                + pick([
                    "", "/", "/api/auth/login", "?x=1", "/a?b=1", "/a#f", "/a?b=1#f", "/a b", "/ü", "/a?q=ä", "/%7B",
                    "/{x}", "//x", "/@x",
                ])
            let live = random.next() % 4 != 0
            let environment = pick(environments)
            let request = pick(requests)
            let now = route(url, live: live, environment: environment, request: request)
            let before = Outcome { () throws(TransportError) in
                try Self.twoCopies(
                    request, url: url, onLiveThread: live, proxies: ProxySettings(environment: environment))
            }
            #expect(now == before, "\(url.debugDescription) live: \(live) \(environment)")
            switch now {
            case .plain: plain += 1
            case .pooled: pooled += 1
            case .refused: refused += 1
            }
        }
        #expect(
            plain > 250 && pooled > 250 && refused > 250,
            "too few of a kind to prove anything: \(plain) plain, \(pooled) pooled, \(refused) refused")
    }

    /// The rule as `LiveHTTPAdapter.exchangeOnce` wrote it at 33eb9dd, in its two copies, kept here as the oracle.
    static func twoCopies(_ request: HTTPRequest, url: String, onLiveThread: Bool, proxies: ProxySettings)
        throws(TransportError) -> TransportRoute
    {
        if let plainURL = PlainHTTPURL(url), proxies.server(scheme: "http", host: plainURL.host) == nil,
            onLiveThread,
            let (head, body) = PlainHTTPClient.prepare(
                request, host: plainURL.host, port: plainURL.port,
                target: plainURL.target, userAgent: userAgent)
        {
            return .plain(.init(head: head, body: body, host: plainURL.host, port: plainURL.port ?? 80))
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host,
            scheme == "http" || scheme == "https"
        else {
            throw TransportError(
                .other, url: url,
                cause: "not an absolute http(s) URL — check the flow's base_url and the run variables it uses")
        }
        if let problem = RequestURL.absoluteURLProblem(url) {
            throw TransportError(
                .notSent, url: url, cause: "\(problem) — check the flow's base_url and the run variables it uses")
        }
        let proxy = proxies.server(scheme: scheme, host: host)
        if scheme == "http", proxy == nil, !host.contains(":"), onLiveThread,
            let (head, body) = PlainHTTPClient.prepare(
                request, host: host, port: parsed.port, target: PlainHTTPClient.requestTarget(url, parsed),
                userAgent: userAgent)
        {
            return .plain(.init(head: head, body: body, host: host, port: parsed.port ?? 80))
        }
        return .pooled(.init(request: request, proxy: proxy))
    }
}
