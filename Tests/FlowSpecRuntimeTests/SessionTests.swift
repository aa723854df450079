import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

@Suite(.timeLimit(.minutes(5))) struct SessionTests {
    @Test func refreshOn401StoresRotatedTokensAndRetriesOnceWithTheNewToken() async throws {
        let backend = FakeBackend { request, _ in
            switch (request.path, request.header("Authorization")) {
            case ("/me", "Bearer old"?): json(401, #"{"error":"expired"}"#)
            case ("/refresh", _): json(200, #"{"access":"new","refresh":"r2"}"#)
            case ("/me", "Bearer new"?): json(200, #"{"id":"u1"}"#)
            default: json(500, "{}")
            }
        }
        let (context, store, _) = makeContext(
            try sessionSpecs(), backend, store: ["t": ["access": .string("old"), "refresh": .string("r1")]])
        let result = await Interpreter(context: context).run(flow: "t.me")
        #expect(result.outcome == "ok")
        #expect(result.outputs["id"] == .string("u1"))
        #expect(store.get("t", "refresh") == .string("r2"))
        let requests = await backend.requests
        #expect(requests.map(\.path) == ["/me", "/refresh", "/me"])
        #expect(requests[1].header("Authorization") == nil, "refresh requests bypass the session")
        #expect(requests[1].json == .object(["refreshToken": .string("r1")]))
    }

    @Test func aSecond401AfterTheRetryIsNotRefreshedAgain() async throws {
        let backend = FakeBackend { request, _ in
            request.path == "/refresh" ? json(200, #"{"access":"new","refresh":"r2"}"#) : json(401, "{}")
        }
        let (context, _, _) = makeContext(
            try sessionSpecs(), backend, store: ["t": ["access": .string("old"), "refresh": .string("r1")]])
        let result = await Interpreter(context: context).run(flow: "t.me")
        #expect(result.outcome == "signed_out")
        #expect(await backend.requests.map(\.path) == ["/me", "/refresh", "/me"])
    }

    @Test func refreshFailureClearsTheNamespaceAndEndsWithTheSessionOutcome() async throws {
        let backend = FakeBackend { request, _ in
            request.path == "/refresh" ? json(401, #"{"error":"reuse"}"#) : json(401, "{}")
        }
        let (context, store, _) = makeContext(
            try sessionSpecs(), backend,
            store: ["t": ["access": .string("old"), "refresh": .string("r1")], "other": ["k": .string("keep")]])
        let result = await Interpreter(context: context).run(flow: "t.me")
        #expect(result.outcome == "signed_out")
        #expect(result.success == false)
        #expect(result.reason == "Session expired")
        #expect(store.namespace("t").isEmpty)
        #expect(store.get("other", "k") == .string("keep"))
    }

    @Test func concurrent401sShareExactlyOneRefresh() async throws {
        let backend = FakeBackend(gatherConcurrent: 5, on: "/me") { request, _ in
            switch (request.path, request.header("Authorization")) {
            case ("/me", "Bearer old"?): json(401, "{}")
            case ("/refresh", _): json(200, #"{"access":"new","refresh":"r2"}"#)
            default: json(200, #"{"id":"u1"}"#)
            }
        }
        let (context, _, _) = makeContext(
            try sessionSpecs(), backend, store: ["t": ["access": .string("old"), "refresh": .string("r1")]])
        let interpreter = Interpreter(context: context)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<5 { group.addTask { await interpreter.run(flow: "t.me").outcome } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: "ok", count: 5))
        #expect(await backend.count("/refresh") == 1)
        #expect(await backend.count("/me") == 10)
    }

    @Test func proactiveRefreshHappensBeforeTheRequestWhenInsideTheMargin() async throws {
        let backend = FakeBackend { request, _ in
            request.path == "/refresh" ? json(200, #"{"access":"new","refresh":"r2"}"#) : json(200, #"{"id":"u1"}"#)
        }
        let clock = VirtualClock(start: 1_000)
        let (context, _, _) = makeContext(
            try sessionSpecs(), backend,
            store: ["t": ["access": .string("old"), "refresh": .string("r1"), "expires_at": .number(1_059)]],
            clock: clock)
        let result = await Interpreter(context: context).run(flow: "t.me")
        #expect(result.outcome == "ok")
        let requests = await backend.requests
        #expect(requests.map(\.path) == ["/refresh", "/me"])
        #expect(requests[1].header("Authorization") == "Bearer new")
    }

    @Test func noProactiveRefreshOutsideTheMargin() async throws {
        let backend = FakeBackend { _, _ in json(200, #"{"id":"u1"}"#) }
        let (context, _, _) = makeContext(
            try sessionSpecs(), backend,
            store: ["t": ["access": .string("old"), "refresh": .string("r1"), "expires_at": .number(1_061)]])
        _ = await Interpreter(context: context).run(flow: "t.me")
        #expect(await backend.requests.map(\.path) == ["/me"])
    }
}
