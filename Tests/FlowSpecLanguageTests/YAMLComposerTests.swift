import Foundation
import Testing

@testable import FlowSpecLanguage

/// `YAMLComposer` reads libyaml's events itself instead of Yams' node tree. It must read every file as the
/// Yams-based loader did (`YamsReferenceLoader`): the same tree, locations and quoting, or the same diagnostic —
/// on every shipped YAML file and on thousands of broken variants of them.
@Suite(.timeLimit(.minutes(5))) struct YAMLComposerTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every YAML file of the project's flows, scenarios, probes and benchmarks, as text.
    private static func corpus() throws -> [(name: String, text: String)] {
        var files: [(String, String)] = []
        for folder in ["flows", "scenarios", "probes", "bench", "examples"] {
            let root = repository.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in walker where url.pathExtension == "yaml" {
                files.append(
                    (
                        url.path.replacingOccurrences(of: repository.path + "/", with: ""),
                        try String(contentsOf: url, encoding: .utf8)
                    ))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test func readsEveryShippedFileAsYamsDid() throws {
        let files = try Self.corpus()
        #expect(files.count > 100, "the corpus should hold the shipped flows and scenarios")
        for (name, text) in files {
            try expectSame(text, file: name)
        }
    }

    /// Deterministic mutations of the shipped files: YAML's own punctuation dropped in, lines cut, doubled and
    /// re-indented — parse errors, duplicate keys, tags, anchors and aliases, all compared with the reference.
    @Test func readsBrokenVariantsAsYamsDid() throws {
        let files = try Self.corpus()
        var random = SplitMix(seed: 0x5EED_F10E)
        let pieces = [
            ":", ": ", "- ", "&a ", "*a", "*b", "&b ", "!x ", "!!str ", "! ", "\t", "\"", "'", "{", "}", "[", "]", ",",
            "---\n", "...\n", "? ", "|\n", ">-\n", "#", "%YAML 1.1\n", "\u{0}", "\u{FEFF}", "é", "\r\n", "  ", "\n",
        ]
        var compared = 0, failures = 0
        for (name, text) in files where text.utf8.count < 20_000 {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for _ in 0..<12 {
                var mutated = lines
                for _ in 0..<(1 + random.next(3)) {
                    let row = random.next(mutated.count)
                    switch random.next(5) {
                    case 0: mutated.remove(at: row); if mutated.isEmpty { mutated = [""] }
                    case 1: mutated.insert(mutated[row], at: row)
                    case 2:
                        mutated[row] = String(repeating: " ", count: random.next(5)) + mutated[row].drop { $0 == " " }
                    default:
                        var line = Array(mutated[row])
                        line.insert(contentsOf: pieces[random.next(pieces.count)], at: random.next(line.count + 1))
                        mutated[row] = String(line)
                    }
                }
                let variant = mutated.joined(separator: "\n")
                let before = failures
                try expectSame(variant, file: name, failures: &failures)
                if failures > before, failures > 5 { return }
                compared += 1
            }
            lines = []
        }
        #expect(compared > 1_000)
    }

    @Test func aliasesExpandAndAnchorsShadowAsInYams() throws {
        for text in [
            "a: &x [1, 2]\nb: *x\n", "a: &x 1\nb: &x 2\nc: *x\n", "a: &x {k: v}\nb: {<<: *x}\n",
            "a: &x 1\n*x : 2\n", "a: *x\n", "a: &x [*x]\n", "? &k a\n: 1\n? *k\n: 2\n",
            "a: !!str 1\n!!str a: 2\n", "a: 1\n!!int a: 2\n", "! a: 1\na: 2\n", "\"a\": 1\na: 2\n",
            "b: 1\na: 1\nb: 2\na: 2\n", "a: !local x\nb: {c: d, c: e}\n", "a: !local x\nb: [\n",
        ] {
            try expectSame(text, file: "t.yaml")
        }
    }

    /// Mappings over 16 keys are searched through an index: repeated keys are found there too, before and after it
    /// is built.
    @Test(arguments: [(3, 10), (3, 30), (20, 35), (39, 40)])
    func repeatedKeysOfLargeMappingsAreFound(_ original: Int, _ repeated: Int) throws {
        var lines = (0..<40).map { "k\($0): \($0)" }
        lines.insert("k\(original): again", at: repeated)
        let text = lines.joined(separator: "\n") + "\n"
        try expectSame(text, file: "large.yaml")
        guard case .failure(let diagnostic) = YAMLLoader.load(text: text, file: "large.yaml") else {
            Issue.record("accepted"); return
        }
        #expect(diagnostic.location.line == repeated + 1)
    }

    /// An alias used as a key that stands for a list is refused where the alias is written; the reference named
    /// the anchored list's place instead.
    @Test func anAliasKeyStandingForAListIsRefusedWhereItIsWritten() {
        guard case .failure(let diagnostic) = YAMLLoader.load(text: "a: &x [1]\n*x : 2\n", file: "k.yaml") else {
            Issue.record("a list used as a key was accepted"); return
        }
        #expect(
            diagnostic.description.hasPrefix("k.yaml:2:1: error: a key must be plain text, found a list used as a key"))
    }

    /// A big file without a single alias meets the same limit, and is not called an alias bomb (it once was).
    @Test func aMillionPlainNodesAreRefusedWithoutCallingThemAnAliasBomb() {
        let text = "k: [" + String(repeating: "1,", count: 1_000_000) + "1]\n"
        guard case .failure(let diagnostic) = YAMLLoader.load(text: text, file: "big.yaml") else {
            Issue.record("a document of more than a million nodes was accepted"); return
        }
        #expect(
            diagnostic.message
                == "too many nodes: the document has more than 1,000,000, each alias counted as the nodes it repeats")
        #expect(!diagnostic.description.contains("bomb"))
    }

    /// "Billion laughs": aliases of aliases expand to 10^12 nodes without taking that time or memory.
    @Test func anAliasBombIsRefusedAtOnce() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...12 {
            text +=
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
                + "]\n"
        }
        let started = Date()
        guard case .failure(let diagnostic) = YAMLLoader.load(text: text, file: "bomb.yaml") else {
            Issue.record("an alias bomb was accepted"); return
        }
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(
            diagnostic.message
                == "too many nodes: the document has more than 1,000,000, each alias counted as the nodes it repeats")
        #expect(
            diagnostic.hint
                == "FlowSpec reads at most 1,000,000 nodes a file; split it into smaller files, or repeat fewer aliases"
        )
        // Level k is a list of 10^(k+1) + … + 1 nodes; the nine aliases of a4 (111,111 nodes each) on line 6 cross
        // a million.
        #expect(diagnostic.location.line == 6)
    }

    @Test func aDuplicateKeyIsReportedWhereItIsRepeated() throws {
        let text = "flow: a.b\nstart: s\nstates:\n  s:\n    end: ok\nstart: t\n"
        guard case .failure(let diagnostic) = YAMLLoader.load(text: text, file: "d.yaml") else {
            Issue.record("accepted"); return
        }
        #expect(
            diagnostic.description
                == "d.yaml:6:1: error: duplicate key `start`\n    hint: `start` is already set at line 2; keep one")
    }

    private func expectSame(_ text: String, file: String) throws {
        var failures = 0
        try expectSame(text, file: file, failures: &failures)
    }

    private func expectSame(_ text: String, file: String, failures: inout Int) throws {
        let ours = YAMLLoader.load(text: text, file: file), reference = YamsReferenceLoader.load(text: text, file: file)
        switch (ours, reference) {
        case (.success(let a), .success(let b)):
            if !same(a, b) {
                failures += 1
                Issue.record("\(file): trees differ for:\n\(text)")
            }
        case (.failure(let a), .failure(let b)):
            if !agree(a, b) {
                failures += 1
                Issue.record("\(file): diagnostics differ:\n  ours:      \(a)\n  reference: \(b)\nfor:\n\(text)")
            }
        default:
            failures += 1
            Issue.record(
                "\(file): one loaded and one refused:\n  ours:      \(ours)\n  reference: \(reference)\nfor:\n\(text)")
        }
    }

    /// Equal, except where the reference guessed: it found a repeated key's second place by searching the text for
    /// the key at the first one's column (wrong when the key is repeated elsewhere first, and no hint when not found;
    /// `aDuplicateKeyIsReportedWhereItIsRepeated` checks ours), and placed an alias bomb wherever its count ran out.
    private func agree(_ ours: Diagnostic, _ reference: Diagnostic) -> Bool {
        if reference.message.hasPrefix("duplicate key") { return ours.message == reference.message }
        if reference.message.contains("too many nodes") { return ours.message == reference.message }
        return ours == reference
    }

    private func same(_ a: YAMLNode, _ b: YAMLNode) -> Bool {
        guard a.location == b.location else { return false }
        switch (a.content, b.content) {
        case (.scalar(let x, let xq), .scalar(let y, let yq)): return x == y && xq == yq
        case (.sequence(let xs), .sequence(let ys)):
            return xs.count == ys.count && zip(xs, ys).allSatisfy { same($0, $1) }
        case (.mapping(let xs), .mapping(let ys)):
            return xs.count == ys.count && zip(xs, ys).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
        default: return false
        }
    }
}

/// The seeded generator (`SplitMix64`), so every run mutates the same way and a failure can be replayed.
private struct SplitMix {
    private var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    mutating func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(max(bound, 1))) }
}
