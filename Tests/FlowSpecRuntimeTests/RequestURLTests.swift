import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// A URL is checked once, where it is built: no port NIO cannot take, no query or fragment in a base URL, and no
/// template value that changes the host or adds a query.
@Suite(.timeLimit(.minutes(2))) struct RequestURLTests {
    @Test(arguments: [
        ("https://127.0.0.1:99999", "outside 1–65535"),
        ("http://h:0/x", "outside 1–65535"),
        ("http://h:65536", "outside 1–65535"),
        ("http://h:99999999999999999999999/", "outside 1–65535"),
        ("http://h:12ab/", "must be a number"),
        ("http://h:/x", "empty"),
        ("http://[::1]:70000/", "outside 1–65535"),
        ("ftp://h/", "http or https"),
        ("h:8080", "absolute"),
        ("http:///x", "no host"),
        ("https://api.test/?x=1", "query"),
        ("https://api.test#frag", "fragment"),
    ])
    func badBaseURLsAreRefusedWithTheirReason(url: String, reason: String) {
        let problem = RequestURL.baseURLProblem(url)
        #expect(problem?.contains(reason) == true, "\(url): \(problem ?? "accepted")")
    }

    @Test(arguments: [
        "http://127.0.0.1:8080", "https://api.test/auth/v1", "http://[::1]:65535/", "HTTP://h:1", "http://u:p@h:80/x",
    ])
    func goodBaseURLsAreAccepted(url: String) {
        #expect(RequestURL.baseURLProblem(url) == nil)
    }

    @Test func aRequestURLMayHaveAQueryButNotABadPort() {
        #expect(RequestURL.absoluteURLProblem("https://api.test/x?a=1") == nil)
        #expect(RequestURL.absoluteURLProblem("http://127.0.0.2:99999/x") != nil)
    }

    @Test func credentialsAreMaskedWhateverTheirLength() {
        #expect(RequestURL.maskingCredentials("http://u:p@h:80/a@b") == "http://••••@h:80/a@b")
        #expect(RequestURL.maskingCredentials("https://h/x") == "https://h/x")
        #expect(RequestURL.credentials("http://alice:pw@h/") == ["pw", "alice"])
    }

    @Test func theRedactorMasksURLCredentialsOfAnyLength() {
        #expect(
            Redactor().redactURL("http://qa:p@127.0.0.1:8080/login?next=/a@b")
                == "http://••••@127.0.0.1:8080/login?next=/a@b")
    }

    @Test func pathValuesAreData() {
        #expect(RequestURL.encodePathValue("x?admin=1#f") == "x%3Fadmin=1%23f")
        #expect(RequestURL.encodePathValue("/api/v1/me") == "/api/v1/me")
        #expect(RequestURL.encodePathValue("a b%") == "a%20b%25")
        #expect(RequestURL.rooted("@127.0.0.3:8080/evil") == "/@127.0.0.3:8080/evil")
    }

    static let flowYAML = """
        flow: t.use
        defaults: { base_url: "${vars.base}" }
        inputs:
          id: { type: string }
        start: use
        states:
          use:
            request: { method: GET, path: "${inputs.id}", query: { keep: "1" } }
            on:
              - when: status == 200
                goto: ok
          ok: { end: ok, success: true }
        """

    static let nextYAML = """
        flow: t.next
        variables: { next: "" }
        start: first
        states:
          first:
            request: { method: GET, path: /first }
            on:
              - when: status == 200
                set: { next: body.next }
                goto: second
          second:
            request: { method: GET, url: "${next}" }
            on:
              - when: status == 200
                goto: ok
          ok: { end: ok, success: true }
        """

    @Test func aPathValueNeverChangesTheHostOrTheQuery() async throws {
        let backend = FakeBackend { _, _ in json(200, "{}") }
        var (context, _, _) = makeContext(
            try TestSpecs.load(["t/use.yaml": Self.flowYAML]), backend,
            inputs: ["id": ["@127.0.0.3:8080/evil?admin=1#x"]])
        context.vars = ["base": .string("http://127.0.0.1:8080")]
        context.requiresBaseURL = true
        let result = await Interpreter(context: context).run(flow: "t.use")
        #expect(result.success)
        let sent = try #require(await backend.requests.first)
        #expect(sent.url == "http://127.0.0.1:8080/@127.0.0.3:8080/evil%3Fadmin=1%23x?keep=1")
        #expect(URLComponents(string: sent.url)?.host == "127.0.0.1")
    }

    @Test func aBaseURLWithABadPortEndsTheFlowBeforeSendingAndMasksItsCredentials() async throws {
        let backend = FakeBackend { _, _ in json(200, "{}") }
        var (context, _, _) = makeContext(
            try TestSpecs.load(["t/use.yaml": Self.flowYAML]), backend, inputs: ["id": ["/x"]])
        context.vars = ["base": .string("http://qa:hunter2@127.0.0.1:99999")]
        context.requiresBaseURL = true
        let result = await Interpreter(context: context).run(flow: "t.use")
        #expect(!result.success)
        #expect(result.reason.contains("outside 1–65535"), "\(result.reason)")
        #expect(!result.reason.contains("hunter2") && !result.reason.contains("qa:"), "\(result.reason)")
        #expect(await backend.requests.isEmpty)
    }

    @Test func aURLFromAResponseWithABadPortFailsThatFlow() async throws {
        let backend = FakeBackend { request, _ in
            request.path == "/first" ? json(200, #"{"next":"http://127.0.0.2:99999/x"}"#) : json(200, "{}")
        }
        let (context, _, _) = makeContext(try TestSpecs.load(["t/next.yaml": Self.nextYAML]), backend)
        let result = await Interpreter(context: context).run(flow: "t.next")
        #expect(!result.success)
        #expect(result.reason.contains("outside 1–65535"), "\(result.reason)")
        #expect(await backend.requests.count == 1)
    }

    @Test func aURLKeepsItsOwnQuery() async throws {
        let backend = FakeBackend { request, _ in
            request.path == "/first" ? json(200, #"{"next":"http://127.0.0.2:8080/x?step=2"}"#) : json(200, "{}")
        }
        let (context, _, _) = makeContext(try TestSpecs.load(["t/next.yaml": Self.nextYAML]), backend)
        let result = await Interpreter(context: context).run(flow: "t.next")
        #expect(result.success)
        #expect(await backend.requests.last?.url == "http://127.0.0.2:8080/x?step=2")
    }
}
