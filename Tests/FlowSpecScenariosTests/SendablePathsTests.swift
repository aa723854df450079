import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// What paths a flow can send, for refusing `expect.requests[]` entries that nothing can match: the path as sent
/// (base URL prefix included) or as written, `${…}` matching any text, a base URL from a variable leaving the prefix open.
@Suite(.timeLimit(.minutes(5))) struct SendablePathsTests {
    static func flow(base: String?, path: String = "/users/${inputs.id}/tokens", url: String? = nil) -> String {
        """
        flow: t.f
        inputs: { id: { type: string } }
        \(base.map { "defaults: { base_url: \"\($0)\" }" } ?? "")
        start: go
        states:
          go:
            request: { method: POST, \(url.map { "url: \"\($0)\"" } ?? "path: \"\(path)\"") }
            on:
              - else: true
                goto: done
          done: { end: done, success: true }

        """
    }

    static func paths(_ yaml: String) throws -> SendablePaths {
        let specs = try TestSpecs.load(["t/f.yaml": yaml])
        return SendablePaths(specs.reachable(from: ["t.f"]).flows)
    }

    @Test func aStaticPrefixIsPartOfThePathAsSentAndThePathAsWrittenStillMatches() throws {
        let paths = try Self.paths(Self.flow(base: "https://api.example.com/v2/"))
        #expect(paths.canMatch(method: "POST", path: "/v2/users/42/tokens"))
        #expect(paths.canMatch(method: "POST", path: "/users/42/tokens"))
        #expect(paths.canMatch(method: "POST", path: "/v2/users/a/b/tokens"), "a hole takes any text, / included")
        #expect(!paths.canMatch(method: "POST", path: "/v3/users/42/tokens"))
        #expect(!paths.canMatch(method: "GET", path: "/v2/users/42/tokens"))
        #expect(!paths.canMatch(method: "POST", path: "/v2/users/42/tokens?x=1"), "no query")
        #expect(paths.listing == "POST /v2/users/${…}/tokens")
    }

    @Test func aBaseURLFromAVariableLeavesThePrefixOpen() throws {
        let paths = try Self.paths(Self.flow(base: "${vars.api_url}"))
        #expect(paths.canMatch(method: nil, path: "/anything/before/users/1/tokens"))
        #expect(!paths.canMatch(method: nil, path: "/users/1/tokens/extra"))
        #expect(paths.requests.first?.unknownBase == "vars.api_url")
        #expect(paths.listing == "POST …/users/${…}/tokens")
    }

    @Test func anAbsoluteURLIsMatchedByItsPath() throws {
        let paths = try Self.paths(Self.flow(base: nil, url: "https://${vars.host}/oauth/token?grant=x"))
        #expect(paths.canMatch(method: "POST", path: "/oauth/token"))
        #expect(!paths.canMatch(method: "POST", path: "/token"))
    }

    @Test func wildcardMatchingIsExact() {
        typealias P = SendablePaths.Piece
        #expect(SendablePaths.matches([.text("/a/"), .hole, .text("/b")], "/a/x/y/b"))
        #expect(SendablePaths.matches([.text("/a/"), .hole], "/a/"))
        #expect(!SendablePaths.matches([.text("/a/"), .hole, .text("/b")], "/a/x/bc"))
        #expect(SendablePaths.matches([.hole, .text("/b"), .hole, .text("/b")], "/b/b/b"))
        #expect(!SendablePaths.matches([.text("/a")], "/a/"))
        let long = String(repeating: "/a", count: 20_000)
        #expect(
            !SendablePaths.matches([.hole, .text("/b"), .hole, .text("/c")], long),
            "a long path is refused in reasonable time")
    }
}
