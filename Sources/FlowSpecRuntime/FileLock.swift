import FlowSpecLanguage
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a lock file beside the file it guards (`tokens.json.lock` for `tokens.json`), so two
/// processes do not read, change and write that file at the same time and lose one's update. The kernel drops the
/// lock when the holder exits, however it exits: a `kill -9` never leaves the file locked. The lock file is left in
/// place: removing it would let a third process lock a new file while a second still holds the old one.
/// Unlocked when it goes out of scope or is consumed (`_ = consume lock`): closing the descriptor releases it.
package struct FileLock: ~Copyable {
    package let path: String
    private let descriptor: Int32

    /// Locks `path`, creating it (mode 0600) if needed, waiting at most `waitSeconds` for another holder;
    /// `onWait` is called once if it has to wait.
    package static func acquire(_ path: String, waitSeconds: Double, onWait: () -> Void = {})
        async throws(FileLockError)
        -> FileLock
    {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
        guard fd >= 0 else { throw FileLockError(path: path, reason: .cannotOpen(String(cString: strerror(errno)))) }
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64((waitSeconds * 1000).rounded()))
        var warned = false
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return FileLock(path: path, descriptor: fd) }
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw FileLockError(path: path, reason: .cannotOpen(String(cString: strerror(code))))
            }
            guard clock.now < deadline else {
                close(fd)
                throw FileLockError(path: path, reason: .heldTooLong(seconds: waitSeconds))
            }
            if !warned { onWait(); warned = true }
            // Polled rather than a blocking flock, which cannot be given a deadline or be cancelled.
            try? await Task.sleep(for: .milliseconds(25))
        }
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}

/// Why a lock could not be taken.
package struct FileLockError: Error, CustomStringConvertible {
    package enum Reason: Sendable {
        case cannotOpen(String)
        case heldTooLong(seconds: Double)
    }
    package var path: String
    package var reason: Reason

    package var description: String {
        switch reason {
        case .cannotOpen(let why): "cannot create or lock \(path): \(why)"
        case .heldTooLong(let seconds):
            "another process has held the lock \(path) for more than \(Durations.describe(seconds))"
        }
    }
}
