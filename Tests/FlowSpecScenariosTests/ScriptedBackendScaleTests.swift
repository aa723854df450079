import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// A scripted backend finds the exchange for a request without scanning the used-up ones again: it scanned from the
/// first exchange at every request, so a scenario of 20,000 exchanges took 33 s and 60,000 over 300 s. The bounds
/// here are many times what the new lookup needs on a loaded machine, and far below what the scan took.
@Suite(.timeLimit(.minutes(2))) struct ScriptedBackendScaleTests {
    static let count = 20_000

    static func request(_ path: String, method: String = "GET") -> HTTPRequest {
        HTTPRequest(method: method, baseURL: nil, path: path)
    }

    @Test func twentyThousandExchangesInOrder() async throws {
        let exchanges = (0..<Self.count).map {
            exchange("GET", "/poll", json: nil, status: $0 == Self.count - 1 ? 200 : 202)
        }
        let backend = ScriptedBackend(exchanges: exchanges, anyOrder: false, redactor: Redactor())
        let started = ContinuousClock.now
        for _ in 0..<Self.count { _ = try await backend.send(Self.request("/poll")) }
        let elapsed = ContinuousClock.now - started
        #expect(await backend.unused().isEmpty)
        #expect(await backend.problems.isEmpty)
        #expect(elapsed < .seconds(5), "\(Self.count) requests took \(elapsed)")
        // One more finds every exchange used, as before.
        await #expect(throws: TransportError.self) { try await backend.send(Self.request("/poll")) }
        #expect(await backend.problems.last?.contains("every scripted exchange has been used") == true)
    }

    @Test func twentyThousandExchangesInAnyOrderTakenLastFirst() async throws {
        let exchanges = (0..<Self.count).map { exchange("GET", "/item/\($0)") }
        let backend = ScriptedBackend(exchanges: exchanges, anyOrder: true, redactor: Redactor())
        let started = ContinuousClock.now
        for index in (0..<Self.count).reversed() { _ = try await backend.send(Self.request("/item/\(index)")) }
        let elapsed = ContinuousClock.now - started
        #expect(await backend.unused().isEmpty)
        #expect(elapsed < .seconds(5), "\(Self.count) requests took \(elapsed)")
    }

    // MARK: the same choices as the scan

    /// In any order the first open exchange in file order wins, whether it names the method and path or leaves
    /// them out, and one used up gives way to the next.
    @Test func anyOrderPicksTheFirstOpenMatchInFileOrder() async throws {
        var anything = RequestMatcher()
        anything.method = nil
        var anyPath = RequestMatcher()
        anyPath.method = "GET"
        func made(_ matcher: RequestMatcher, status: Int, times: Int = 1) -> Exchange {
            Exchange(
                location: SourceLocation(file: "s.yaml", line: status, column: 1), request: matcher,
                response: .reply(HTTPResponse(status: status)), times: times, concurrent: false)
        }
        let exchanges = [
            exchange("GET", "/a", status: 201, times: 2),
            made(anyPath, status: 202),
            exchange("GET", "/a", status: 203),
            made(anything, status: 204),
            exchange("POST", "/a", json: .object(["n": .number(1)]), status: 205),
            exchange("POST", "/a", json: .object(["n": .number(2)]), status: 206),
        ]
        let backend = ScriptedBackend(exchanges: exchanges, anyOrder: true, redactor: Redactor())
        func status(_ method: String, _ path: String, json: JSONValue? = nil) async throws -> Int {
            var request = Self.request(path, method: method)
            request.json = json
            return try await backend.send(request).status
        }
        #expect(try await status("GET", "/a") == 201)
        #expect(try await status("GET", "/a") == 201, "times: 2")
        #expect(try await status("GET", "/a") == 202, "a GET on any path comes before the later GET /a")
        #expect(try await status("GET", "/a") == 203)
        #expect(
            try await status("POST", "/a", json: .object(["n": .number(2)])) == 204,
            "the exchange that matches anything is earlier")
        #expect(
            try await status("POST", "/a", json: .object(["n": .number(2)])) == 206,
            "the body picks between the same method and path")
        #expect(try await status("POST", "/a", json: .object(["n": .number(1)])) == 205)
        await #expect(throws: TransportError.self) { try await status("GET", "/a") }
        #expect(await backend.unused().isEmpty)
    }

    /// In order, a request that is not the next exchange is refused against that exchange, used-up ones skipped.
    @Test func inOrderComparesWithTheNextOpenExchange() async throws {
        let backend = ScriptedBackend(
            exchanges: [exchange("GET", "/a", times: 2), exchange("GET", "/b")], anyOrder: false, redactor: Redactor())
        _ = try await backend.send(Self.request("/a"))
        _ = try await backend.send(Self.request("/a"))
        await #expect(throws: TransportError.self) { try await backend.send(Self.request("/a")) }
        let problems = await backend.problems
        #expect(problems.first?.contains("path: expected /b, got /a") == true, "\(problems)")
    }
}
