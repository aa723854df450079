import Foundation
import Testing

@testable import FlowSpecRuntime

/// `exec --store FILE`: a missing file is an empty store; anything else that is not a store says so and how to go on.
@Suite(.timeLimit(.minutes(5))) struct TokenStoreFileReadTests {
    @Test func readsWhatWasWrittenAndExplainsWhatIsNotAStore() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("store.json").path
        #expect(try TokenStoreFile.read(at: path).isEmpty)
        try TokenStoreFile.write(["demo": ["access_token": .string("a")]], to: path)
        #expect(try TokenStoreFile.read(at: path)["demo"]?["access_token"] == .string("a"))
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try TokenStoreFile.read(at: path)
            Issue.record("an array was read as a store")
        } catch {
            #expect(
                error.description.contains("is not a FlowSpec token store")
                    && error.description.contains("delete it or pass another --store"))
        }
    }
}
