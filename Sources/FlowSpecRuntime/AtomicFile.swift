import Foundation

/// Writes a file whole or not at all, so nothing a user owns (a token store, a report) is ever left half-written:
/// the data goes to a temporary file in the same folder, which is then renamed over the target (atomic on POSIX).
public enum AtomicFile {
    public static func write(_ data: Data, to path: String, permissions: Int = 0o644) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let fm = FileManager.default
        guard fm.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: permissions]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        if rename(temporary.path, url.path) != 0 {
            let code = errno
            try? fm.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}
