import Foundation
import Synchronization

/// What every fuzz target needs: the input as text or parts, async code run to completion, a shipped folder.
enum FuzzInput {
    /// The input as the loaders see a file: strict UTF-8, or nil, as `YAMLLoader.load(file:)` refuses a file
    /// that is not UTF-8 before any parser sees it.
    static func text(_ data: Data) -> String? {
        String(data: data, encoding: .utf8)
    }

    /// libFuzzer's buffer as bytes.
    static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> Data {
        Data(UnsafeBufferPointer(start: data, count: size))
    }

    /// Splits at the first `separator` byte: (before, after). No separator: everything is the first part.
    /// Seeds stay readable because the separator is a newline.
    static func split(_ data: Data, at separator: UInt8 = 0x0A) -> (Data, Data) {
        guard let index = data.firstIndex(of: separator) else { return (data, Data()) }
        return (data[data.startIndex..<index], data[(index + 1)...])
    }

    /// Whether `needle` occurs in `text`, byte for byte in UTF-8. The invariants look for ASCII secrets, which a
    /// byte search finds exactly; Foundation's `contains` compares by Unicode rules through NSString and was a
    /// fifth of the response target's time.
    static func occurs(_ needle: String, in text: String) -> Bool {
        let haystack = Array(text.utf8), pattern = Array(needle.utf8)
        guard let first = pattern.first, pattern.count <= haystack.count else { return pattern.isEmpty }
        var start = 0
        while start + pattern.count <= haystack.count {
            guard let hit = haystack[start...(haystack.count - pattern.count)].firstIndex(of: first) else {
                return false
            }
            if haystack[hit..<(hit + pattern.count)].elementsEqual(pattern) { return true }
            start = hit + 1
        }
        return false
    }

    /// Runs async work from libFuzzer's synchronous callback and waits for it. The work runs on the global
    /// executor; this thread only waits, so there is no deadlock with the cooperative pool.
    static func block<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// A folder of the shipped repository (flows/…), found from this source file's place at build time, or from
    /// FLOWSPEC_FUZZ_ROOT when the binary runs elsewhere.
    static func repositoryPath(_ relative: String) -> String {
        let root =
            ProcessInfo.processInfo.environment["FLOWSPEC_FUZZ_ROOT"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent() // FlowSpecFuzzing
            .deletingLastPathComponent().deletingLastPathComponent() // Sources, the repository
            .path
        return (root as NSString).appendingPathComponent(relative)
    }
}
