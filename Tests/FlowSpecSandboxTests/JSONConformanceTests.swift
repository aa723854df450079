import Foundation
import Testing

@testable import FlowSpecSandbox

/// The sandbox reads request bodies with its own parser: it must refuse what is not JSON just as strictly.
/// The cases are JSONTestSuite's, vendored once under the language tests' fixtures.
private enum JSONTestSuite {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FlowSpecLanguageTests/Fixtures/JSONTestSuite/test_parsing")

    static func names(_ prefix: String) -> [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }
}

@Suite("the sandbox's JSON parser against JSONTestSuite", .timeLimit(.minutes(5)))
struct SandboxJSONConformanceTests {
    @Test func theSuiteIsThere() {
        #expect(JSONTestSuite.names("y_").count == 95)
        #expect(JSONTestSuite.names("n_").count == 188)
        #expect(JSONTestSuite.names("i_").count == 35)
    }

    @Test(arguments: JSONTestSuite.names("y_"))
    func acceptsEveryValidDocument(_ name: String) throws {
        #expect(JSON.parse(try JSONTestSuite.bytes(name)) != nil, "\(name) is valid JSON")
    }

    @Test(arguments: JSONTestSuite.names("n_"))
    func refusesEveryInvalidDocument(_ name: String) throws {
        #expect(JSON.parse(try JSONTestSuite.bytes(name)) == nil, "\(name) is not JSON")
    }

    @Test(arguments: JSONTestSuite.names("i_"))
    func decidesEveryImplementationDefinedDocumentQuickly(_ name: String) throws {
        let bytes = try JSONTestSuite.bytes(name)
        let started = ContinuousClock.now
        _ = JSON.parse(bytes)
        #expect(
            ContinuousClock.now - started < .seconds(30),
            "a hang or a blow-up, not a loaded machine (microseconds alone)")
    }

    @Test("integers stay .int, true stays apart from 1, trailing commas and 01 are refused")
    func valuesAndRefusals() {
        #expect(
            JSON.parse(Array(#"{"a": 1, "b": true, "c": 1.5, "d": [null, "x\u00e9"], "e": -0}"#.utf8))
                == ["a": 1, "b": true, "c": .double(1.5), "d": [nil, "xé"], "e": 0])
        for bad in [
            "[1,]", #"{"a":1,}"#, "01", "-01", "+1", ".2e-3", "2.e3", "1e400", String(repeating: "[", count: 100_000),
        ] {
            #expect(JSON.parse(Array(bad.utf8)) == nil, "\(bad.prefix(20))")
        }
        #expect(
            JSON.parse(Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)) != nil)
        #expect(
            JSON.parse(Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8)) == nil)
    }

    @Test("a request body with a trailing comma is not JSON to the sandbox")
    func trailingCommaBodyIsRefused() {
        let request = SandboxRequest(
            method: "POST", path: "/x", query: [:], headers: [:], body: Array(#"{"email": "a@b.c",}"#.utf8), now: 0)
        guard case .failure(.notJSON) = request.jsonObject() else {
            Issue.record("a body with a trailing comma was read as JSON")
            return
        }
    }
}
