import Foundation
import Testing

/// Each fixture under Fixtures/malformed holds one mistake; its first line states the exact diagnostic:
/// `# expect: LINE:COL: error: MESSAGE` (and optionally `# hint: TEXT`).
struct MalformedFixture: CustomTestStringConvertible, Sendable {
    var file: URL
    var expected: String
    var hint: String?
    var testDescription: String { file.lastPathComponent }

    static let folder = FlowSpecBinary.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/malformed")
    static let flows = FlowSpecBinary.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/flows")

    static var all: [MalformedFixture] {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "yaml" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
            .compactMap { file in
                guard let data = try? Data(contentsOf: file) else { return nil }
                let text = String(decoding: data, as: UTF8.self)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(2).map(String.init)
                guard let first = lines.first, first.hasPrefix("# expect: ") else { return nil }
                let hint =
                    lines.count > 1 && lines[1].hasPrefix("# hint: ")
                    ? String(lines[1].dropFirst("# hint: ".count)) : nil
                return MalformedFixture(file: file, expected: String(first.dropFirst("# expect: ".count)), hint: hint)
            }
    }
}

@Suite(.timeLimit(.minutes(5))) struct MalformedCatalogueTests {
    @Test func theCatalogueIsLargeEnough() {
        #expect(MalformedFixture.all.count >= 30)
    }

    @Test(arguments: MalformedFixture.all)
    func eachMalformedFileGetsItsExactDiagnostic(_ fixture: MalformedFixture) async throws {
        let relative = "Tests/EndToEndTests/Fixtures/malformed/" + fixture.file.lastPathComponent
        let result = try await FlowSpecBinary.run(["check", "--flows", MalformedFixture.flows.path, relative])
        let isWarning = fixture.expected.contains(": warning: ")
        #expect(result.status == (isWarning ? 0 : 2), "\(result.all)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let expectedLine = "\(relative):\(fixture.expected)"
        let index = lines.firstIndex(of: expectedLine)
        #expect(index != nil, "expected `\(expectedLine)` in:\n\(result.stdout)")
        if let hint = fixture.hint, let index {
            #expect(
                lines.indices.contains(index + 1) && lines[index + 1] == "    hint: \(hint)",
                "hint missing in:\n\(result.stdout)")
        }
        // Exactly one error, so the fixture tests one thing.
        #expect(lines.filter { $0.contains(": error: ") }.count == (isWarning ? 0 : 1), "\(result.stdout)")
    }
}
