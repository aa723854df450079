import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

func exchange(_ method: String, _ path: String, json: JSONValue? = nil, status: Int = 200, times: Int = 1) -> Exchange {
    var m = RequestMatcher()
    m.method = method
    m.path = path
    m.json = json
    return Exchange(
        location: SourceLocation(file: "s.yaml", line: 1, column: 1), request: m,
        response: .reply(HTTPResponse(status: status, body: Data("{}".utf8))), times: times, concurrent: false)
}

@Suite(.timeLimit(.minutes(5))) struct ScriptedBackendTests {
    @Test func strictOrderRejectsOutOfOrderRequestsWithADiff() async throws {
        let backend = ScriptedBackend(
            exchanges: [exchange("POST", "/a"), exchange("POST", "/b")], anyOrder: false, redactor: Redactor())
        await #expect(throws: TransportError.self) {
            try await backend.send(HTTPRequest(method: "POST", baseURL: nil, path: "/b"))
        }
        let problems = await backend.problems
        #expect(problems.count == 1)
        #expect(problems[0].contains("path: expected /a, got /b"))
    }

    @Test func anyOrderMatchesTheFirstUnusedMatchingExchange() async throws {
        let backend = ScriptedBackend(
            exchanges: [exchange("POST", "/a"), exchange("POST", "/b")], anyOrder: true, redactor: Redactor())
        _ = try await backend.send(HTTPRequest(method: "POST", baseURL: nil, path: "/b"))
        _ = try await backend.send(HTTPRequest(method: "POST", baseURL: nil, path: "/a"))
        #expect(await backend.unused().isEmpty)
        #expect(await backend.problems.isEmpty)
    }

    @Test func jsonSubsetMatchingAndMaskedDifferences() {
        let redactor = Redactor()
        redactor.register("secret-code-1")
        let expected = JSONValue.object(["code": .string("secret-code-2"), "nested": .object(["a": .number(1)])])
        let actual = JSONValue.object([
            "code": .string("secret-code-1"), "nested": .object(["a": .number(1), "b": .number(2)]),
            "extra": .bool(true),
        ])
        let diffs = RequestMatching.jsonDifferences(expected, actual, at: "json", redactor)
        #expect(diffs == [#"json.code: expected "secret-code-2", got "••••""#])
    }

    @Test func unusedExchangesAreReported() async {
        let backend = ScriptedBackend(
            exchanges: [exchange("GET", "/me", times: 2)], anyOrder: false, redactor: Redactor())
        _ = try? await backend.send(HTTPRequest(method: "GET", baseURL: nil, path: "/me"))
        #expect(await backend.unused() == ["exchange at s.yaml:1:1 (GET /me) was used 1 of 2 times"])
    }
}
