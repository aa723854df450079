import Foundation
import Testing

/// `flowspec schema` as a user runs it, and the schema files shipped in `schemas/`.
@Suite(.timeLimit(.minutes(5))) struct SchemaEndToEndTests {
    @Test(arguments: ["flow", "scenario"]) func printsPrettyJSONSchema(_ kind: String) async throws {
        let result = try await FlowSpecBinary.run(["schema", kind])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["$schema"] as? String == "http://json-schema.org/draft-07/schema#")
        #expect(object["definitions"] is [String: Any])
        #expect(result.stdout.hasPrefix("{\n  \""))
        #expect(result.stdout.hasSuffix("}\n"))
        #expect(try await FlowSpecBinary.run(["schema", kind]).stdout == result.stdout, "output is not deterministic")
    }

    @Test(arguments: ["flow", "scenario"]) func theCommittedSchemaFileIsTheCommandsOutput(_ kind: String) async throws {
        let path = "schemas/\(kind).schema.json"
        let committed = try String(contentsOf: FlowSpecBinary.root.appendingPathComponent(path), encoding: .utf8)
        let output = try await FlowSpecBinary.run(["schema", kind]).stdout
        #expect(committed == output, "\(path) is out of date: run `flowspec schema \(kind) > \(path)` and commit it")
    }

    @Test func anUnknownKindIsAUsageError() async throws {
        let result = try await FlowSpecBinary.run(["schema", "nope"])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("unknown schema `nope`"))
        #expect(result.stderr.contains("`flow`") && result.stderr.contains("`scenario`"))
    }

    @Test func noKindIsAUsageError() async throws {
        let result = try await FlowSpecBinary.run(["schema"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("kind"))
    }
}
