import FlowSpecRuntime
import Foundation
import HostileBackend
import Testing

@testable import FlowSpecHTTP

/// A header that cannot go on the wire is the run's mistake, refused before anything is sent, through either client:
/// `.notSent` (the flow ends in an error, exit 2), naming the header and never showing its value.
@Suite(.serialized, .timeLimit(.minutes(2))) struct RequestHeaderCheckTests {
    static let token = "eyJhbGciOiJIUzI1NiJ9.s3cr3t-t0ken"

    @Test(
        arguments: [
            ("Authorization", "Bearer \(token)\n", "a line feed (LF)"),
            ("X-API-Key", "\(token)\r\nX-Injected: 1", "a carriage return (CR)"),
            ("X-Token", "\(token)\u{0}", "a NUL byte"),
            ("X-Token", "\(token)\u{1}", "the control character 0x1"),
        ],
        Route.allCases)
    func aControlCharacterInAHeaderValueIsNotSentAndNotShown(header: (String, String, String), route: Route)
        async throws
    {
        let (name, value, what) = header
        let server = try HostileServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        defer { server.stop() }
        let adapter = LiveHTTPAdapter(options: LiveHTTPOptions())
        let request = FlowSpecRuntime.HTTPRequest(
            method: "GET", baseURL: server.url, path: "/me", headers: [(name, value)])
        let (result, _) = await route.send(request, with: adapter)
        await adapter.shutdown()
        guard case .failure(let error) = result else {
            Issue.record("sent a header value holding \(what)")
            return
        }
        #expect(error.kind == .notSent, "\(error)")
        #expect(error.url == request.url)
        #expect(error.cause.contains("the value of the header `\(name)` holds \(what)"), "\(error)")
        #expect(!error.description.contains(Self.token), "\(error)")
        #expect(!error.description.contains("X-Injected"), "\(error)")
        #expect(server.requests.isEmpty)
    }

    @Test func aTrailingNewlineGetsTheYAMLBlockHint() {
        let problem = RequestHeaderCheck.problem(
            in: [("Authorization", "Bearer \(Self.token)\n")], userAgent: "flowspec")
        #expect(problem?.contains("`key: |-`") == true, "\(problem ?? "")")
    }

    @Test func anInvalidHeaderNameIsNamedWithItsControlCharactersEscaped() {
        let problem = RequestHeaderCheck.problem(in: [("X-Bad\r\nName", "v")], userAgent: "flowspec")
        #expect(
            problem
                == "the header name `X-Bad\\r\\nName` is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)"
        )
    }
}
