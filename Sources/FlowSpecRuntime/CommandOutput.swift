import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a command printed, read until the command *exits* — not until its pipes close. A daemon it starts
/// (`setsid server &`) inherits the pipes and keeps them open for its whole life; waiting for their end would keep
/// flowspec waiting just as long, past any timeout. Each stream is bounded: a command printing without end is
/// stopped at `limit` bytes instead of filling memory.
struct CommandOutput {
    enum Stream: String { case standardOutput = "standard output", standardError = "standard error" }

    var standardOutput = Data()
    var standardError = Data()
    /// The stream that went past the limit; the command was stopped when it did.
    var overflowed: Stream?

    /// Reads `output` and `error` until `hasExited()`, then whatever is left in the pipes without waiting for
    /// writers that are still alive. Calls `stop` once when a stream passes `limit`, and keeps reading (and
    /// dropping) until the exit. The exit is looked for between reads, at most `checkMilliseconds` apart.
    static func collect(
        output: Int32, error: Int32, limit: Int, checkMilliseconds: Int32 = 10,
        stop: () -> Void, hasExited: () -> Bool
    ) -> CommandOutput {
        var result = CommandOutput()
        var open: [Int32: Bool] = [output: true, error: true]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // A quick command is seen to end within a millisecond or two; a slow one is looked at less often.
        var wait: Int32 = 1
        while !hasExited() {
            var fds: [pollfd] = []
            for fd in [output, error] where open[fd] == true {
                fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), wait)
            wait = min(wait * 2, checkMilliseconds)
            if ready < 0 && errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                if !result.read(entry.fd, isOutput: entry.fd == output, into: &buffer, limit: limit, stop: stop) {
                    open[entry.fd] = false
                }
            }
        }
        // The child has exited: what it wrote is in the pipes. Writers still alive (a daemon it started) are not
        // waited for, so the rest is read without blocking, and at most a limit's worth: one still writing must
        // not keep this loop going.
        let reads = limit / buffer.count + 2
        for fd in [output, error] where open[fd] == true {
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var left = reads
            while left > 0, result.read(fd, isOutput: fd == output, into: &buffer, limit: limit, stop: stop) {
                left -= 1
            }
        }
        return result
    }

    /// One read into the right stream; false at the end of the pipe, on an error, or when nothing is waiting.
    private mutating func read(_ fd: Int32, isOutput: Bool, into buffer: inout [UInt8], limit: Int, stop: () -> Void)
        -> Bool
    {
        let count = buffer.withUnsafeMutableBytes { bytes in
            #if canImport(Glibc)
                Glibc.read(fd, bytes.baseAddress, bytes.count)
            #else
                Darwin.read(fd, bytes.baseAddress, bytes.count)
            #endif
        }
        if count < 0 { return errno == EINTR }
        if count == 0 { return false }
        let stream: Stream = isOutput ? .standardOutput : .standardError
        let current = isOutput ? standardOutput.count : standardError.count
        if overflowed == nil, current + count > limit {
            overflowed = stream
            stop()
        }
        if overflowed == nil {
            if isOutput {
                standardOutput.append(contentsOf: buffer[..<count])
            } else {
                standardError.append(contentsOf: buffer[..<count])
            }
        }
        return true
    }
}
