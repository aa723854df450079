import Foundation
import Testing

@testable import FlowSpecFuzzing

/// The fuzz harness replayed on stored inputs by the main package's tests, without libFuzzer: every input that once
/// stopped a target (Fuzz/Crashes) and the first inputs of each stored corpus must leave every invariant standing.
/// A harness that no longer builds or no longer loads its fixed world fails here, not first in CI's fuzz smoke.
@Suite(.timeLimit(.minutes(5)))
struct StoredFuzzInputsTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test func everyStoredCrashPassesItsTarget() async throws {
        let crashes = Self.files(in: Self.fuzzFolder.appendingPathComponent("Crashes")).filter {
            $0.lastPathComponent != "README.md"
        }
        #expect(crashes.count >= 4, "the reproducers in Fuzz/Crashes were not found")
        for file in crashes {
            let prefix = String(file.lastPathComponent.prefix { $0 != "-" })
            let target = try #require(FuzzTarget(rawValue: prefix), "\(file.lastPathComponent) names no target")
            let input = try Data(contentsOf: file)
            await #expect(throws: Never.self, "\(file.lastPathComponent)") { try await target.run(input) }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func theFirstInputsOfEachCorpusPass(_ target: FuzzTarget) async throws {
        let corpus = Self.files(in: Self.fuzzFolder.appendingPathComponent("Corpus/\(target.rawValue)"))
        #expect(corpus.count >= 100, "Fuzz/Corpus/\(target.rawValue) was not found")
        for file in corpus.prefix(25) {
            let input = try Data(contentsOf: file)
            await #expect(throws: Never.self, "\(target.rawValue): \(file.lastPathComponent)") {
                try await target.run(input)
            }
        }
    }
}
