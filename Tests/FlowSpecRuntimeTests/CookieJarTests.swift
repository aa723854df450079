import Foundation
import Testing

@testable import FlowSpecRuntime

/// The run's cookie jar keeps what `Set-Cookie` sets and sends it back as RFC 6265 says: same host (or the
/// `Domain` and its subdomains), a matching path, `Secure` only over https or loopback; `Max-Age=0` deletes.
@Suite struct CookieJarTests {
    func request(_ url: String, path: String = "/") -> HTTPRequest {
        HTTPRequest(method: "GET", baseURL: url, path: path)
    }

    func response(_ cookies: String...) -> HTTPResponse {
        HTTPResponse(status: 200, headers: cookies.map { ("Set-Cookie", $0) })
    }

    @Test func aCookieSetByALoginIsSentOnTheNextRequestToTheSameHost() {
        let jar = CookieJar(), redactor = Redactor()
        jar.record(
            response("session=eyJzdGF0ZSI6InJlYWR5In0.abc; HttpOnly; Path=/"),
            for: request("http://api.test", path: "/login"), redactor: redactor)
        var next = request("http://api.test", path: "/tf-validate")
        jar.attach(to: &next)
        #expect(next.header("Cookie") == "session=eyJzdGF0ZSI6InJlYWR5In0.abc")
        var elsewhere = request("http://other.test", path: "/tf-validate")
        jar.attach(to: &elsewhere)
        #expect(elsewhere.header("Cookie") == nil, "a cookie goes back only to the host that set it")
        #expect(
            redactor.redact("sent eyJzdGF0ZSI6InJlYWR5In0.abc") == "sent ••••",
            "a cookie a backend sets is a credential")
    }

    @Test func pathsDomainsAndSecureAreMatchedAsBrowsersDo() {
        let jar = CookieJar(), redactor = Redactor()
        jar.record(
            response("a=1; Path=/api", "b=2; Domain=example.test", "c=3; Secure", "d=4; Path=/api/v2"),
            for: request("http://www.example.test", path: "/api/login"), redactor: redactor)
        var api = request("http://www.example.test", path: "/api/v2/me")
        jar.attach(to: &api)
        // Longer paths first; `c` is Secure and this is plain http to a non-loopback host.
        #expect(api.header("Cookie") == "d=4; a=1; b=2")
        var sub = request("https://shop.example.test", path: "/api/things")
        jar.attach(to: &sub)
        #expect(sub.header("Cookie") == "b=2", "only the Domain cookie reaches a sibling host")
        var apiary = request("http://www.example.test", path: "/apiary")
        jar.attach(to: &apiary)
        #expect(apiary.header("Cookie") == nil, "`/api` does not match `/apiary`; b defaults to the path `/api` too")
        var loopback = request("http://127.0.0.1:8000")
        jar.attach(to: &loopback)
        #expect(loopback.header("Cookie") == nil)
    }

    @Test func maxAgeZeroDeletesAndASameNamedCookieReplaces() {
        let jar = CookieJar(), redactor = Redactor()
        let login = request("http://127.0.0.1:8000", path: "/login")
        jar.record(
            response("session=first-value-1234; Path=/", "csrftoken=xyz-123456789; Path=/"), for: login,
            redactor: redactor)
        jar.record(response("session=second-value-5678; Path=/"), for: login, redactor: redactor)
        var next = request("http://127.0.0.1:8000", path: "/me")
        jar.attach(to: &next)
        #expect(next.header("Cookie") == "csrftoken=xyz-123456789; session=second-value-5678")
        jar.record(
            response("session=; Max-Age=0; Path=/", "csrftoken=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/"),
            for: login, redactor: redactor)
        #expect(jar.names.isEmpty)
    }

    @Test func aStateThatSetsCookieItselfIsLeftAlone() {
        let jar = CookieJar()
        jar.record(response("session=abcdefgh12345; Path=/"), for: request("http://127.0.0.1:1"), redactor: Redactor())
        var own = request("http://127.0.0.1:1")
        own.setHeader("Cookie", "mine=1")
        jar.attach(to: &own)
        #expect(own.header("Cookie") == "mine=1")
        var none = request("http://127.0.0.1:1")
        none.setHeader("Cookie", "")
        jar.attach(to: &none)
        #expect(none.headers.isEmpty, "`Cookie: \"\"` sends no cookie header at all: \(none.headers)")
    }

    @Test func aHostCannotSetACookieForAnotherDomainNorGrowTheJarWithoutBound() {
        let jar = CookieJar(), redactor = Redactor()
        jar.record(response("evil=1; Domain=bank.test"), for: request("http://attacker.test"), redactor: redactor)
        #expect(jar.names.isEmpty)
        let many = (0..<1_000).map { "k\($0)=v; Path=/" }
        jar.record(
            HTTPResponse(status: 200, headers: many.map { ("Set-Cookie", $0) }), for: request("http://127.0.0.1:1"),
            redactor: redactor)
        #expect(jar.names.count == CookieJar.limit)
        #expect(redactor.redact("v 1") == "v 1", "short preference values are not masked")
    }
}
