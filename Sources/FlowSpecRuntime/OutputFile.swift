import FlowSpecLanguage
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file a user named for output (a report, a diagram, a merged report). A new or regular file is written
/// atomically (`AtomicFile`). Anything else that already exists — a FIFO, a terminal, `/dev/null`, `/dev/full` —
/// is written into directly: replacing it with a regular file would break what the user set up (as root, even a
/// device node). `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are this process's own descriptors, written in order
/// after what the console printed there, whatever they are redirected to.
package enum OutputFile {
    /// How long to wait for a reader to open a FIFO before giving up: a FIFO nobody reads would block for ever.
    package static let defaultReaderWaitSeconds: Double = 10

    package static func write(
        _ data: Data, to path: String, permissions: Int = 0o644,
        readerWaitSeconds: Double = OutputFile.defaultReaderWaitSeconds
    ) throws {
        if let fd = ownDescriptor(path) {
            try writeAll(data, to: fd, path: path)
            return
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return try AtomicFile.write(data, to: path, permissions: permissions) }
        switch FileKind(info.st_mode) {
        case .regular: try AtomicFile.write(data, to: path, permissions: permissions)
        case .directory: throw AtomicFileError(path: path, step: "it is a folder; name a file inside it", code: nil)
        default: try writeDirectly(data, to: path, readerWaitSeconds: readerWaitSeconds)
        }
    }

    /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N` names in this process.
    static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    private static func writeDirectly(_ data: Data, to path: String, readerWaitSeconds: Double) throws {
        // Non-blocking, so opening a FIFO without a reader fails (ENXIO) instead of blocking for ever.
        let deadline = Date().addingTimeInterval(readerWaitSeconds)
        var fd: Int32
        while true {
            fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if fd >= 0 { break }
            let code = errno
            if code == EINTR { continue }
            if code == ENXIO, Date() < deadline { usleep(20_000); continue }
            if code == ENXIO {
                throw AtomicFileError(
                    path: path,
                    step: "no program opened the FIFO for reading within \(Durations.describe(readerWaitSeconds))",
                    code: nil)
            }
            throw AtomicFileError(path: path, step: "cannot open it", code: code)
        }
        defer { close(fd) }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        try writeAll(data, to: fd, path: path)
    }

    /// Every byte, or an error naming why not (`/dev/full`: no space left on device). Waits when a descriptor
    /// someone else made non-blocking is full.
    static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard var next = buffer.baseAddress else { return }
            var left = buffer.count
            while left > 0 {
                #if canImport(Glibc)
                    let written = Glibc.write(fd, next, left)
                #else
                    let written = Darwin.write(fd, next, left)
                #endif
                if written < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    if code == EAGAIN || code == EWOULDBLOCK {
                        var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, 1000)
                        continue
                    }
                    throw AtomicFileError(path: path, step: "writing failed", code: code)
                }
                next += written
                left -= written
            }
        }
    }
}
