import Foundation
import Testing

@testable import FlowSpecLanguage

/// Inputs a mutation fuzzer found that used to take time or memory exponential in their size.
@Suite(.timeLimit(.minutes(5))) struct HostileYAMLTests {
    /// `[{[{ … }]: 1}]` nested 40 deep: each key used to be turned into JSON text and escaped again one level up,
    /// doubling the text per level (28 levels took 15 s and 0.9 GB).
    @Test func deeplyNestedComplexKeysAreRefusedAtOnce() {
        var value = "a"
        for _ in 0..<40 { value = "[{\(value): 1}]" }
        let started = Date()
        let result = YAMLLoader.load(text: "flow: x.y\nmax_steps: \(value)\n", file: "keys.yaml")
        #expect(Date().timeIntervalSince(started) < 10)
        guard case .failure(let diagnostic) = result else { Issue.record("a list used as a key was accepted"); return }
        #expect(diagnostic.message == "a key must be plain text, found a list used as a key")
        #expect(diagnostic.location.line == 2 && diagnostic.location.column == 14)
    }

    @Test func aMappingUsedAsAKeyIsNamedAsSuch() {
        guard case .failure(let diagnostic) = YAMLLoader.load(text: "vars:\n  ? {a: 1}\n  : 2\n", file: "k.yaml") else {
            Issue.record("a mapping used as a key was accepted"); return
        }
        #expect(diagnostic.message == "a key must be plain text, found a mapping used as a key")
    }

    @Test func quotedKeysWithBracketsAreText() throws {
        let root = try YAMLLoader.load(text: "\"[a]\": 1\n'{b}': 2\n", file: "q.yaml").get()
        #expect(root.mapping?.compactMap(\.key.scalar) == ["[a]", "{b}"])
    }
}
