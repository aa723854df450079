import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// Loading a large token store — reading the file, registering every value as a secret, masking what the run shows —
/// takes time in proportion to its size: a 3 MB store of 30,000 keys took 10–13 s. Larger than `maxBytes`, a store
/// is refused before it is read.
@Suite(.timeLimit(.minutes(5))) struct TokenStoreLoadTests {
    /// 10,000 keys in 10 namespaces, each a 90-character opaque value: 1 MB (the issue's store had 30,000).
    static func bigStore() -> Data {
        var random = SplitMix64(seed: 30_000)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var namespaces: [String: JSONValue] = [:]
        for n in 0..<10 {
            var values: [String: JSONValue] = [:]
            for k in 0..<1_000 {
                let value = String(decoding: (0..<90).map { _ in letters[Int(random.next() % 64)] }, as: UTF8.self)
                values[k % 3 == 0 ? "access_token_\(k)" : "key_\(k)"] = .string(value)
            }
            namespaces["ns\(n)"] = .object(values)
        }
        return TokenStoreFile.encode(namespaces.mapValues { if case .object(let v) = $0 { v } else { [:] } })
    }

    @Test func aLargeStoreLoadsAndMasksInProportionToItsSize() throws {
        let data = Self.bigStore()
        #expect(data.count > 1_000_000 && data.count < TokenStoreFile.maxBytes)
        let clock = ContinuousClock()
        var snapshot: TokenStore.Snapshot = [:]
        let parsing = try clock.measure { snapshot = try #require(TokenStoreFile.decode(data)) }
        let redactor = Redactor()
        let secret = snapshot["ns7"]!["key_500"]!.stringValue!
        // As a run that shows its exchanges does: every text it prints is masked.
        let exchange =
            #"{"user":{"id":"u-1","email":"qa@example.com","role":"admin"},"items":[\#((0..<20).map { #"{"n":\#($0),"name":"item \#($0)"}"# }.joined(separator: ","))]}"#
        let loading = clock.measure {
            _ = TokenStore(snapshot, redactor: redactor)
            #expect(redactor.redact("echoed: \(secret).") == "echoed: ••••.")
            for _ in 0..<200 { #expect(redactor.redact(exchange) == exchange) }
        }
        // Seconds in a debug build on a loaded 2-core machine (one search per secret: minutes); parsing is the
        // JSON reader's.
        #expect(loading < .seconds(20), "registering and masking took \(loading) (parsing \(parsing))")
    }

    @Test func aStoreLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("tokens.json").path, small = dir.appendingPathComponent("small.json").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: UInt64(TokenStoreFile.maxBytes + 1))
        try handle.close()
        try Data("{}".utf8).write(to: URL(fileURLWithPath: small))
        let problem = try #require(TokenStoreFile.sizeProblem(at: big))
        #expect(problem.contains(big) && problem.contains("4 MiB") && problem.contains("--store"))
        #expect(TokenStoreFile.sizeProblem(at: small) == nil)
    }
}
