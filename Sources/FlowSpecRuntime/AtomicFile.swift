import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file whole or not at all, so nothing a user owns (a token store, a report) is ever left half-written:
/// the data goes to a temporary file in the same folder, which is then renamed over the target (atomic on POSIX).
///
/// The temporary file is created with its final permissions (`open` with `O_CREAT | O_EXCL` and the mode), so a
/// token store never exists, even for an instant, readable by other users; the umask can only narrow the mode.
/// A failed write removes it. A `kill -9` between creation and rename cannot be cleaned up by the process that was
/// killed, so the next private write to the same target removes leftovers older than `staleSeconds`.
///
/// Only regular files are replaced: a symbolic link is followed (the file it points to is replaced, the link stays),
/// and a FIFO, device or folder is refused — `OutputFile` writes into those directly.
package enum AtomicFile {
    /// A leftover this old is no write in progress: writes take milliseconds.
    package static let staleSeconds: Double = 60

    package static func write(_ data: Data, to path: String, permissions: Int = 0o644) throws {
        let target = try resolvedTarget(path)
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        let prefix = ".\(name)."
        // Only for private files (a token store, the sandbox's variables): a leftover of one is a copy of secrets,
        // and other writes (a folder of generated scenarios) then need not read the folder each time.
        if permissions & 0o077 == 0 { removeStaleTemporaries(in: directory, prefix: prefix) }
        let temporary = (directory == "/" ? "" : directory) + "/" + prefix + UUID().uuidString + ".tmp"

        // O_EXCL with O_NOFOLLOW: never opens a file or a link someone else planted under that name.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else {
            throw AtomicFileError(path: path, step: "cannot create a temporary file in \(directory)", code: errno)
        }
        do {
            try OutputFile.writeAll(data, to: fd, path: path)
            // On disk before the rename: after a crash the target is the old file or the new one, never empty.
            guard fsync(fd) == 0 else {
                throw AtomicFileError(path: path, step: "cannot flush it to disk", code: errno)
            }
            guard close(fd) == 0 else {
                let code = errno
                unlink(temporary)
                throw AtomicFileError(path: path, step: "writing failed", code: code)
            }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw AtomicFileError(path: path, step: "cannot rename the temporary file over it", code: code)
        }
    }

    /// `path`, or the file a symbolic link at `path` points to; an error for anything but a regular file or nothing.
    static func resolvedTarget(_ path: String) throws -> String {
        var info = stat()
        guard lstat(path, &info) == 0 else { return path } // nothing there yet (or unreadable: `open` will say)
        if FileKind(info.st_mode) == .symbolicLink {
            guard stat(path, &info) == 0 else { return path } // a dangling link: renamed over like a missing file
            guard FileKind(info.st_mode) == .regular, let real = realpath(path, nil) else {
                throw AtomicFileError(
                    path: path, step: "it is \(FileKind(info.st_mode).description), not a regular file", code: nil)
            }
            defer { free(real) }
            return String(cString: real)
        }
        guard FileKind(info.st_mode) == .regular else {
            throw AtomicFileError(
                path: path, step: "it is \(FileKind(info.st_mode).description), not a regular file", code: nil)
        }
        return path
    }

    /// Removes `<prefix>*.tmp` files older than `staleSeconds` in `directory`: what a killed write left behind.
    /// Entries are read in place (never copying a whole `dirent`, which can over-read a short record).
    static func removeStaleTemporaries(in directory: String, prefix: String) {
        guard let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        let now = Date().timeIntervalSince1970
        let nameOffset = MemoryLayout<dirent>.offset(of: \.d_name)!
        while let entry = readdir(handle) {
            let name = String(
                cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { continue }
            let candidate = (directory == "/" ? "" : directory) + "/" + name
            var info = stat()
            guard lstat(candidate, &info) == 0, FileKind(info.st_mode) == .regular,
                now - Double(modificationSeconds(info)) > staleSeconds
            else { continue }
            unlink(candidate)
        }
    }
}

private func modificationSeconds(_ info: stat) -> Int {
    #if canImport(Glibc)
        Int(info.st_mtim.tv_sec)
    #else
        Int(info.st_mtimespec.tv_sec)
    #endif
}

/// Why a file could not be written, naming the step and the system's reason.
package struct AtomicFileError: Error, LocalizedError, CustomStringConvertible {
    package var path: String
    package var step: String
    package var code: Int32?

    package var description: String {
        guard let code else { return step }
        return "\(step): \(String(cString: strerror(code)))"
    }
    package var errorDescription: String? { description }
}
