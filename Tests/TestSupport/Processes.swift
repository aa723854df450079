import Foundation

/// Processes on this machine, read from /proc: for tests that check what a command left running.
package enum Processes {
    /// Processes whose command line contains `text` (the test process itself excluded).
    package static func containing(_ text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let commandLine = String(decoding: raw.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return commandLine.contains(text) && !commandLine.contains("xctest") ? pid : nil
        }
    }
}
