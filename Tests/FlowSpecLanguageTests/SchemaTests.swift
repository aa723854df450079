import FlowSpecLoading
import Foundation
import Testing

@testable import FlowSpecLanguage

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The YAML files shipped under `folder`, relative to the repository.
private func shippedYAML(_ folder: String) -> [String] {
    var d = Diagnostics()
    let root = repository.path + "/"
    return ProgramLoader.yamlFiles(in: [root + folder], &d).map { String($0.dropFirst(root.count)) }
}

/// YAML → JSON the way an editor sees it: Yams parses, then core-schema scalars become numbers, booleans, null.
private func json(_ text: String, file: String = "test.yaml") -> JSONValue {
    switch YAMLLoader.load(text: text, file: file) {
    case .success(let node): return node.json
    case .failure(let diagnostic): Issue.record("\(diagnostic)"); return JSONValue.null
    }
}

private func json(file: String) throws -> JSONValue {
    json(try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8), file: file)
}

/// The shipped flow schema: it lists the probe catalogue's promises, which this module cannot see (FlowSpecProbeTests'
/// ProbeCatalogueTests keeps the file equal to the one `flowspec schema flow` prints).
let shippedFlowSchema =
    JSONValue.parse((try? Data(contentsOf: repository.appendingPathComponent("schemas/flow.schema.json"))) ?? Data())
    ?? .null
let flowValidator = MiniSchemaValidator(root: shippedFlowSchema)
let scenarioValidator = MiniSchemaValidator(root: SchemaKind.scenario.document(probePromises: []))

@Suite(.timeLimit(.minutes(5))) struct SchemaTests {
    @Test func theValidatorUnderstandsEveryKeywordTheSchemasUse() {
        #expect(flowValidator.unsupportedKeywords() == [])
        #expect(scenarioValidator.unsupportedKeywords() == [])
    }

    @Test func everyPropertyHasHoverHelp() {
        func undocumented(_ schema: JSONValue, _ path: String) -> [String] {
            guard case .object(let fields) = schema else { return [] }
            var out: [String] = []
            for (name, property) in fields["properties"]?.objectValue ?? [:] {
                if property["description"].stringValue?.isEmpty ?? true { out.append("\(path)/\(name)") }
                out += undocumented(property, "\(path)/\(name)")
            }
            for (name, definition) in fields["definitions"]?.objectValue ?? [:] {
                out += undocumented(definition, "\(path)/\(name)")
            }
            for key in ["additionalProperties", "items"] {
                if let sub = fields[key] { out += undocumented(sub, "\(path)/\(key)") }
            }
            for (i, sub) in (fields["anyOf"]?.arrayValue ?? []).enumerated() {
                out += undocumented(sub, "\(path)/anyOf/\(i)")
            }
            return out
        }
        #expect(undocumented(shippedFlowSchema, "#") == [])
        #expect(undocumented(SchemaKind.scenario.document(probePromises: []), "#") == [])
    }

    @Test func outputIsPrettyStableAndEndsWithANewline() {
        for kind in SchemaKind.allCases {
            #expect(kind.text(probePromises: []) == kind.text(probePromises: []))
            #expect(kind.text(probePromises: []).hasSuffix("}\n"))
            #expect(
                kind.text(probePromises: []).contains("\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\""))
            #expect(JSONValue.parse(kind.text(probePromises: [])) == kind.document(probePromises: []))
        }
    }

    // The schema's keys, kinds and enums are the loader's.

    @Test func flowKeysAreTheLoaders() {
        let definitions = SchemaKind.flow.document(probePromises: [])["definitions"]
        func keys(_ definition: String) -> Set<String> {
            Set(definitions[definition]["properties"].objectValue.map { Array($0.keys) } ?? [])
        }
        #expect(keys("flowFile") == Set(FlowDecoder.topKeys))
        #expect(keys("transition") == Set(FlowDecoder.transitionKeys))
        #expect(keys("sessionFile") == ["session", "title", "namespace", "headers", "refresh"])
        let kinds = FlowDecoder.stateKinds.map { keys("\($0)State").intersection(FlowDecoder.stateKinds) }
        #expect(kinds == FlowDecoder.stateKinds.map { [$0] })
        #expect(
            definitions["input"]["properties"]["type"]["enum"]
                == .array(InputDecl.Kind.allCases.map { .string($0.rawValue) }))
        #expect(
            definitions["request"]["properties"]["method"]["anyOf"].arrayValue?.first?["enum"]
                == .array(FlowDecoder.methods.sorted().map(JSONValue.string)))
    }

    // Every shipped file validates against the schema for its top-level key.

    @Test(arguments: shippedYAML("flows")) func shippedFlowFileValidates(_ file: String) throws {
        let document = try json(file: file)
        #expect(document["scenario"].isNull, "a scenario under flows/")
        #expect(flowValidator.errors(document) == [])
    }

    @Test(arguments: shippedYAML("scenarios")) func shippedScenarioValidates(_ file: String) throws {
        let document = try json(file: file)
        #expect(!document["scenario"].isNull, "scenarios/ holds only scenarios")
        #expect(scenarioValidator.errors(document) == [])
    }

    @Test func theShippedFilesIncludeFlowsSessionsAndScenarios() throws {
        let documents = try shippedYAML("flows").map { try json(file: $0) }
        #expect(documents.filter { !$0["flow"].isNull }.count > 10)
        #expect(documents.filter { $0["flow"].isNull && !$0["session"].isNull }.count >= 3)
        #expect(shippedYAML("scenarios").count > 10)
    }
}
