import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// `body` is JSON only when the response says it is (docs/language.md; docs/decisions.md, Reading responses).
@Suite(.timeLimit(.minutes(5))) struct MediaTypeTests {
    @Test(arguments: [
        "application/json", "application/json; charset=utf-8", "Application/JSON", "APPLICATION/JSON;CHARSET=UTF-8",
        "application/json ; charset=utf-8", " application/json", "application/problem+json", "application/vnd.api+json",
        "application/vnd.api+json; ext=\"bulk\"", "application/merge-patch+json", "text/vnd.foo+json",
        "APPLICATION/LD+JSON",
    ])
    func jsonMediaTypes(_ contentType: String) {
        #expect(MediaType.isJSON(contentType), "\(contentType) is JSON")
    }

    @Test(arguments: [
        "text/plain", "text/plain; charset=utf-8", "TEXT/HTML", "text/html; charset=ISO-8859-1", "application/xml",
        "application/x-www-form-urlencoded", "application/octet-stream", "application/jsonp", "application/json-seq",
        "text/json+xml", "application/+json", "application", "application/", "/json", "json", "", "application/json/x",
        "application /json", "text/plain; note=application/json",
    ])
    func otherMediaTypes(_ contentType: String) {
        #expect(!MediaType.isJSON(contentType), "\(contentType) is not JSON")
    }

    @Test func noContentTypeIsNotJSON() {
        #expect(!MediaType.isJSON(nil))
    }
}

@Suite(.timeLimit(.minutes(5))) struct ResponseBodyTests {
    func body(_ text: String, _ headers: [(String, String)]) -> JSONValue {
        HTTPResponse(status: 200, headers: headers, body: Data(text.utf8)).json
    }

    @Test func aPlainTextCodeStaysTextEvenWhenItLooksLikeANumber() {
        #expect(body("012345", [("Content-Type", "text/plain")]) == .string("012345"))
        #expect(body("12345", [("Content-Type", "text/plain; charset=utf-8")]) == .string("12345"))
        #expect(body("true", [("content-type", "TEXT/HTML")]) == .string("true"))
        #expect(body(#"{"token":"t"}"#, [("Content-Type", "text/plain")]) == .string(#"{"token":"t"}"#))
    }

    @Test func withoutAContentTypeTheBodyIsText() {
        #expect(body("12345", []) == .string("12345"))
        #expect(body(#"{"token":"t"}"#, []) == .string(#"{"token":"t"}"#))
    }

    @Test func aJSONMediaTypeIsParsed() {
        #expect(
            body(#"{"token":"t","n":1,"ok":true}"#, [("Content-Type", "application/json; charset=utf-8")])
                == .object(["token": .string("t"), "n": .number(1), "ok": .bool(true)]))
        #expect(
            body(#"{"title":"Not Found","status":404}"#, [("Content-Type", "application/problem+json")])["status"]
                == .number(404))
        #expect(body("12345", [("Content-Type", "application/vnd.api+json")]) == .number(12345))
        #expect(body("[1]", [("X-Other", "1"), ("CONTENT-TYPE", "application/json")]) == .array([.number(1)]))
    }

    @Test func aJSONMediaTypeWithABodyThatIsNotJSONIsText() {
        #expect(body("012345", [("Content-Type", "application/json")]) == .string("012345"))
        #expect(body(#"{"a":1,}"#, [("Content-Type", "application/json")]) == .string(#"{"a":1,}"#))
        #expect(body("<html>502</html>", [("Content-Type", "application/json")]) == .string("<html>502</html>"))
    }

    @Test func anEmptyBodyIsNullWhateverItsType() {
        #expect(body("", []) == .null)
        #expect(body("", [("Content-Type", "application/json")]) == .null)
        #expect(body("", [("Content-Type", "text/plain")]) == .null)
    }

    /// Through the interpreter, as a flow reads it: the mail catcher's code compares as text.
    @Test func aFlowReadsAPlainTextCodeAsAString() async throws {
        let specs = try TestSpecs.load([
            "f.yaml": """
            flow: t.code
            start: fetch
            states:
              fetch:
                request: { method: GET, path: /code }
                on:
                  - when: body == "012345" && len(body) == 6
                    set: { code: body }
                    goto: done
                  - else: true
                    goto: wrong
              done: { end: fetched, success: true, outputs: { code: code } }
              wrong: { end: wrong, success: false }
            """
        ])
        let backend = FakeBackend { _, _ in
            HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data("012345".utf8))
        }
        let (context, _, _) = makeContext(specs, backend)
        let result = await Interpreter(context: context).run(flow: "t.code")
        #expect(result.outcome == "fetched")
        #expect(result.outputs["code"] == .string("012345"))
    }

    /// An input command's output never goes through JSON: a code printed as `012345` is the text "012345".
    @Test func anInputCommandsCodeStaysText() async throws {
        let specs = try TestSpecs.load([
            "f.yaml": """
            flow: t.typed
            inputs: { code: { type: string } }
            start: ask
            states:
              ask: { input: code, goto: check }
              check:
                choice:
                  - when: inputs.code == "012345"
                    goto: done
                  - else: true
                    goto: wrong
              done: { end: text, success: true, outputs: { code: inputs.code } }
              wrong: { end: wrong, success: false }
            """
        ])
        let redactor = Redactor()
        var context = RunContext(
            specs: specs, adapter: FakeBackend { _, _ in json(500, "{}") }, clock: VirtualClock(start: 1_000),
            store: TokenStore([:], redactor: redactor),
            inputs: LayeredInputSource(values: [:], commands: ["code": "printf '012345\\n'"]),
            vars: [:], redactor: redactor)
        context.requiresBaseURL = false
        let result = await Interpreter(context: context).run(flow: "t.typed")
        #expect(result.outcome == "text", "\(result.reason)")
        #expect(result.outputs["code"] == .string("012345"))
    }
}
