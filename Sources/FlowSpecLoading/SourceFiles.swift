#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finding and reading the YAML files a command was given, with the system's calls.
///
/// Why not Foundation: `FileManager`'s enumerator builds an object and a URL per entry, and `Data(contentsOf:)` a URL
/// per file; a cold `flowspec check flows` reads every file once, so those objects were a visible part of it
/// (docs/performance.md, Cold start and `check`).
package enum SourceFiles {
    /// Whether `path` names a folder, following symbolic links; nil when nothing is there.
    package static func isFolder(_ path: String) -> Bool? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR
    }

    /// The process's working directory, as the system gives it.
    package static func workingDirectory() -> String {
        guard let path = getcwd(nil, 0) else { return "/" }
        defer { free(path) }
        return String(cString: path)
    }

    /// The `.yaml` and `.yml` files under `folder`, at any depth, as `folder/relative/path`, sorted. Hidden entries
    /// count, as they did with `FileManager`; a symbolic link is listed by its name, never followed into a folder
    /// (so a link loop cannot hang a run), and a folder named `x.yaml` is searched, not read as a file.
    /// Nil when `folder` cannot be opened.
    package static func yamlFiles(under folder: String) -> [String]? {
        guard let top = opendir(folder) else { return nil }
        var found: [String] = []
        collect(top, prefix: folder.hasSuffix("/") ? folder : folder + "/", into: &found)
        return found.sorted()
    }

    private static func collect(_ directory: OpaquePointer, prefix: String, into found: inout [String]) {
        defer { closedir(directory) }
        var folders: [String] = []
        while let entry = readdir(directory) {
            // Fields are read through their offsets, never by copying the `dirent`: its name is shorter than the
            // struct Swift imports, and a whole copy reads past the kernel's record (docs/decisions.md, Input
            // commands).
            let raw = UnsafeRawPointer(entry)
            let name = String(
                cString: raw.advanced(by: MemoryLayout<dirent>.offset(of: \.d_name)!).assumingMemoryBound(
                    to: CChar.self))
            if name == "." || name == ".." { continue }
            let path = prefix + name
            var kind = raw.load(fromByteOffset: MemoryLayout<dirent>.offset(of: \.d_type)!, as: UInt8.self)
            if kind == UInt8(DT_UNKNOWN) {
                // Some file systems do not say; ask without following a link.
                var status = stat()
                kind = lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR ? UInt8(DT_DIR) : UInt8(DT_REG)
            }
            if kind == UInt8(DT_DIR) {
                folders.append(path)
            } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                found.append(path)
            }
        }
        for folder in folders {
            guard let inner = opendir(folder) else { continue }
            collect(inner, prefix: folder + "/", into: &found)
        }
    }

    /// Why a file could not be read, in the system's words.
    package struct ReadFailure: Error, Sendable {
        package let reason: String
    }

    /// The whole content of the file at `path`.
    package static func bytes(at path: String) throws(ReadFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadFailure(reason: systemReason()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ReadFailure(reason: systemReason()) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw ReadFailure(reason: "it is a folder") }
        // The size is a hint (a file can grow while it is read, and /proc files say 0): read until the end.
        var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got > 0 { count += got; continue }
            if got == 0 { break }
            if errno == EINTR { continue }
            throw ReadFailure(reason: systemReason())
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    private static func systemReason() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}
