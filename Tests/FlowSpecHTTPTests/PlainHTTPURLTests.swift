import FlowSpecLanguage
import Foundation
import Testing

@testable import FlowSpecHTTP

/// `PlainHTTPURL` reads a URL's host, port and request target without Foundation; whenever it accepts a text, each must
/// be what Foundation's `URL` (and AsyncHTTPClient's request target, computed from it) gives.
@Suite(.timeLimit(.minutes(5))) struct PlainHTTPURLTests {
    func expectFoundationAgrees(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        guard let mine = PlainHTTPURL(text) else { return }
        let url = try #require(
            URL(string: text), "Foundation refuses \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(url.scheme == "http", sourceLocation: sourceLocation)
        #expect(url.host == mine.host, "\(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(url.port == mine.port, "\(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(
            PlainHTTPClient.requestTarget(text, url) == mine.target, "\(text.debugDescription)",
            sourceLocation: sourceLocation)
    }

    @Test func theEverydayShapesAreReadWithoutFoundation() throws {
        let cases: [(String, String, Int?, String)] = [
            ("http://127.0.0.1:8080/api/auth/login?next=%2Fa", "127.0.0.1", 8080, "/api/auth/login?next=%2Fa"),
            ("http://localhost:54321", "localhost", 54321, "/"),
            ("http://api.example-1.com/v1/users/42", "api.example-1.com", nil, "/v1/users/42"),
            ("http://h:1?x=1", "h", 1, "/?x=1"),
            ("http://h/a;p?q=1&r=%7B%7D", "h", nil, "/a;p?q=1&r=%7B%7D"),
        ]
        for (text, host, port, target) in cases {
            #expect(PlainHTTPURL(text) == PlainHTTPURL.expected(host: host, port: port, target: target), "\(text)")
            try expectFoundationAgrees(text)
        }
    }

    @Test func otherShapesAreLeftToFoundation() {
        for text in [
            "https://h/", "HTTP://h/", "http://H/", "http://user:pw@h/", "http://[::1]:80/", "http://h/a#frag",
            "http://h/a b",
            "http://h/ü", "http://h:/", "http://h:080/", "http://h:65536/", "http://h:123456/", "http://", "http:/h",
            "http://h%41/",
            "http://h_1/", "http://h:8a/",
        ] {
            #expect(PlainHTTPURL(text) == nil, "\(text)")
        }
    }

    /// Random texts near the accepted shape, seeded so a failure can be replayed: whatever is accepted, Foundation reads alike.
    @Test(arguments: 1...3) func randomURLsAgreeWithFoundation(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func pick(_ options: [String]) -> String { options[Int(random.next() % UInt64(options.count))] }
        var accepted = 0
        for _ in 0..<2_000 {
            let text =
                pick(["http://", "http://", "http://", "https://", "HTTP://", "http:/"])
                + pick([
                    "h", "localhost", "127.0.0.1", "a.b-c.d", "a..b", "-h", "h.", "H", "h_", "", "0", "1.2.3.4.5",
                    "xn--bcher-kva.example",
                ])
                + pick(["", "", ":1", ":80", ":8080", ":65535", ":65536", ":0", ":08", ":", ":99999"])
                + pick([
                    "", "/", "/a", "/a/b", "/a/./b/../c", "?", "?x=1", "/p?q=%2F&r=", "/a;b", "/~u/", "/a%20b", "/a b",
                    "#f", "/a#f", "//x", "/@x", "/:x",
                ])
                + pick(["", "", "?z", "&w=2", "!$'()*+,=", "%", "%zz"])
            if PlainHTTPURL(text) != nil { accepted += 1 }
            try expectFoundationAgrees(text)
        }
        #expect(accepted > 200, "too few random texts were accepted to prove anything: \(accepted)")
    }
}

extension PlainHTTPURL {
    static func expected(host: String, port: Int?, target: String) -> PlainHTTPURL? {
        guard var url = PlainHTTPURL("http://h") else { return nil }
        url.host = host
        url.port = port
        url.target = target
        return url
    }
}
