import Foundation
import Testing

@testable import FlowSpecLanguage

/// JSONTestSuite's parsing cases (Fixtures/JSONTestSuite, vendored with its licence).
enum JSONTestSuite {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/JSONTestSuite/test_parsing")

    static func names(_ prefix: String) -> [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func bytes(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }
}

@Suite(.timeLimit(.minutes(5))) struct JSONConformanceTests {
    /// The suite is there in full: a missing folder must not pass as "nothing to check".
    @Test func theVendoredSuiteIsComplete() {
        #expect(JSONTestSuite.names("y_").count == 95)
        #expect(JSONTestSuite.names("n_").count == 188)
        #expect(JSONTestSuite.names("i_").count == 35)
    }

    @Test(arguments: JSONTestSuite.names("y_"))
    func acceptsEveryValidDocument(_ name: String) throws {
        let data = try JSONTestSuite.bytes(name)
        #expect(throws: Never.self, "\(name) is valid JSON") { try JSONValue.parsing(data) }
    }

    @Test(arguments: JSONTestSuite.names("n_"))
    func refusesEveryInvalidDocument(_ name: String) throws {
        let data = try JSONTestSuite.bytes(name)
        #expect(throws: JSONSyntaxError.self, "\(name) is not JSON") { try JSONValue.parsing(data) }
    }

    /// Implementation-defined cases may go either way, but quickly and without crashing (a crash kills the test run).
    @Test(arguments: JSONTestSuite.names("i_"))
    func decidesEveryImplementationDefinedDocumentQuickly(_ name: String) throws {
        let data = try JSONTestSuite.bytes(name)
        let started = ContinuousClock.now
        _ = try? JSONValue.parsing(data)
        #expect(
            ContinuousClock.now - started < .seconds(30),
            "a hang or a blow-up, not a loaded machine (microseconds alone)")
    }
}

@Suite(.timeLimit(.minutes(5))) struct JSONParserTests {
    func error(_ text: String) -> JSONSyntaxError? {
        do { _ = try JSONValue.parsing(Data(text.utf8)); return nil } catch { return error }
    }

    /// The numbers the old parser let through: each is refused, with why.
    @Test(arguments: [
        "-01", "+1", ".2e-3", "2.e3", "2.", "1e", "1e+", "-", "01", "0x1", "1.5e", "-.5", "1ee2", "1.2.3", "1e2e3",
        "--1", "Infinity", "NaN", "-Infinity",
    ])
    func refusesNumbersOutsideTheGrammar(_ text: String) {
        #expect(error(text) != nil, "\(text) is not a JSON number")
        #expect(error("[\(text)]") != nil, "[\(text)] is not JSON")
    }

    @Test func readsNumbersInTheGrammar() {
        for (text, value) in [
            ("0", 0.0), ("-0", -0.0), ("12345", 12345), ("-1.5e2", -150), ("2E+3", 2000), ("0.25e-1", 0.025),
            ("1e-400", 0),
        ] {
            #expect(JSONValue.parse(text) == .number(value), "\(text)")
        }
        #expect(
            JSONValue.parse("1e400") == nil, "beyond Double: refused, never infinity (which is not JSON to print back)")
    }

    @Test func keepsTrueDistinctFromOneAndNumbersAsWritten() throws {
        let value = try JSONValue.parsing(
            Data(#"{"t": true, "one": 1, "f": false, "zero": 0, "big": 12345678901234, "x": 1.50}"#.utf8))
        #expect(value["t"] == .bool(true))
        #expect(value["one"] == .number(1))
        #expect(value["t"] != value["one"])
        #expect(value["f"] == .bool(false))
        #expect(value["zero"] == .number(0))
        #expect(value.compactJSON == #"{"big":12345678901234,"f":false,"one":1,"t":true,"x":1.5,"zero":0}"#)
    }

    @Test func writesStringsWithAndWithoutEscapesTheSameWay() {
        // Plain strings take a fast path; these cross into the escaping one at every kind of byte it escapes.
        let cases: [(String, String)] = [
            ("plain é ✓", #""plain é ✓""#), ("q\"", #""q\"""#), ("back\\", #""back\\""#), ("a\nb\r\t", #""a\nb\r\t""#),
            ("\u{01}\u{1f}", #""\u0001\u001f""#), ("\u{7f}", "\"\u{7f}\""), ("", #""""#),
        ]
        for (text, json) in cases {
            #expect(JSONValue.string(text).compactJSON == json, "\(text)")
            #expect(JSONValue.parse(json) == .string(text), "\(json) reads back")
        }
    }

    @Test func deepNestingIsAClearErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000)
        let problem = try #require(error(deep))
        #expect(problem.message == "lists and objects nested deeper than 512 levels")
        #expect(problem.offset == 512)
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(error(objects)?.message == "lists and objects nested deeper than 512 levels")
        // 512 levels is still JSON, and comes back out intact.
        let fine = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONValue.parsing(Data(fine.utf8)).compactJSON == fine)
        #expect(error(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)) != nil)
    }

    @Test func errorsSayWhatAndWhere() {
        #expect(error("[1,]")?.description == "byte 3: expected a value, found `]`")
        #expect(error(#"{"a":1,}"#)?.description == "byte 7: expected a quoted key, found `}`")
        #expect(error("01")?.description == "byte 1: a number cannot start with 0 followed by a digit")
        #expect(error("")?.message == "no JSON value (the text is empty)")
        #expect(error(#"["a""#)?.message == "the text ends inside a list")
        #expect(error(#"{"a":1"#)?.message == "the text ends inside an object")
        #expect(error("[1 2]")?.description == "byte 3: expected `,` or `]` in a list, found `2`")
        #expect(error(#"{"a":1 "b":2}"#)?.description == #"byte 7: expected `,` or `}` in an object, found `"`"#)
        #expect(error(#""abc"#)?.message == "a string is not closed")
        #expect(error("012345")?.message == "a number cannot start with 0 followed by a digit")
        #expect(error(#"{"a":1} x"#)?.message == "unexpected `x` after the JSON value")
    }

    @Test func stringsDecodeEscapesAndSurrogatePairs() {
        #expect(JSONValue.parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00z""#) == .string("a\"\\/\u{08}\u{0C}\n\r\té😀z"))
        #expect(JSONValue.parse(#""\ud800""#) == nil, "a lone surrogate cannot be a Swift string")
        #expect(JSONValue.parse("\"tab\there\"") == nil, "control characters must be escaped")
        #expect(JSONValue.parse(#""\x41""#) == nil)
    }
}
