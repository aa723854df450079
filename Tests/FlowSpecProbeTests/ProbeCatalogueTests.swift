import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecProbe

/// The catalogue is the one place an attack is registered: the schema, `--probe`, the decoder and the docs' table
/// all come from it.
@Suite(.timeLimit(.minutes(5))) struct ProbeCatalogueTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theSchemaNamesEveryAttackWithItsOptions() throws {
        let promises = SchemaKind.flow.published["definitions"]["probeFile"]["properties"]["promises"]["properties"]
        guard case .object(let kinds) = promises else { Issue.record("no promises in the probe file schema"); return }
        #expect(Set(kinds.keys) == Set(ProbeKind.allCases.map(\.rawValue)))
        for attack in ProbeCatalogue.attacks {
            let schema = kinds[attack.name]!
            // A promise with options is a mapping (maybe one of two forms): its keys are source, requires and the options.
            let mapping = schema["oneOf"].arrayValue?.last ?? schema
            let keys = Set(mapping["properties"].objectValue?.keys.map { $0 } ?? [])
            #expect(keys == Set(["source", "requires"] + attack.options.map(\.key)), "\(attack.name)")
        }
    }

    @Test func namesAreUniqueAndKindsRoundTrip() {
        let names = ProbeCatalogue.attacks.map { $0.name }
        #expect(Set(names).count == names.count)
        for kind in ProbeKind.allCases { #expect(ProbeKind(rawValue: kind.rawValue) == kind) }
        #expect(ProbeKind(rawValue: "no_such_probe") == nil)
    }

    @Test func theDocsCatalogueIsTheCatalogues() throws {
        let docs = try String(contentsOf: Self.repository.appendingPathComponent("docs/probe.md"), encoding: .utf8)
        #expect(
            docs.contains(ProbeCatalogue.markdownTable),
            "docs/probe.md's catalogue table differs from ProbeCatalogue.markdownTable: print it with `swift test --filter ProbeCatalogueTests` and paste it"
        )
        if !docs.contains(ProbeCatalogue.markdownTable) { print(ProbeCatalogue.markdownTable) }
    }

    @Test func theShippedSchemaIsThePublishedOne() throws {
        let shipped = try String(
            contentsOf: Self.repository.appendingPathComponent(SchemaKind.flow.shippedPath), encoding: .utf8)
        #expect(shipped == SchemaKind.flow.publishedText)
    }
}
