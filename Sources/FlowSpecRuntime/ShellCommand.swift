import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `/bin/sh -c COMMAND` and returns its trimmed standard output: how QA fetches an emailed code
/// (a database query, a mail-catcher call) without FlowSpec knowing where codes live.
package struct ShellCommand: Sendable {
    package var command: String
    /// Added to the inherited environment.
    package var environment: [String: String]
    package var timeoutSeconds: Double
    /// Above this many open descriptors the command is refused with an error instead of started: Foundation's
    /// `Process.run` on Swift 6.3.1 crashes the whole process past about 1,350 (swift-corelibs-foundation #5472).
    package var descriptorCeiling: Int

    /// Leaves room for the pipes and for other runs opening connections between the count and the start.
    package static let defaultDescriptorCeiling = 1_200

    /// The most a command may print on each of its standard output and error: a value is a short line, and a
    /// command printing without end would otherwise fill memory until its timeout.
    package static let outputLimit = 1 << 20

    /// An input's command must print its value; one run for what it does (a scenario's `command:` step) need not.
    package var requiresOutput = true

    package init(
        _ command: String, environment: [String: String] = [:], timeoutSeconds: Double = 30,
        descriptorCeiling: Int = ShellCommand.defaultDescriptorCeiling
    ) {
        self.command = command
        self.environment = environment
        self.timeoutSeconds = timeoutSeconds
        self.descriptorCeiling = descriptorCeiling
    }

    package func run() async throws(InputError) -> String {
        let command = self.command
        let environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
        let timeout = timeoutSeconds, ceiling = descriptorCeiling, requiresOutput = requiresOutput
        let child = ChildProcessGroup()
        // A run abandoned by --timeout is cancelled: the command (and whatever it started) is killed with it, rather
        // than left running after flowspec has exited.
        let outcome: Result<String, InputError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Blocking reads and waits belong on their own thread, not on the cooperative pool.
                Thread.detachNewThread {
                    continuation.resume(
                        returning: Self.runBlocking(command, environment, timeout, ceiling, requiresOutput, child))
                }
            }
        } onCancel: {
            child.kill()
        }
        return try outcome.get()
    }

    private static func runBlocking(
        _ command: String, _ environment: [String: String], _ timeout: Double, _ ceiling: Int,
        _ requiresOutput: Bool, _ child: ChildProcessGroup
    ) -> Result<String, InputError> {
        // Counted here, on the command's own thread: reading /proc is blocking I/O.
        if let open = OpenDescriptors.count(), open > ceiling {
            return .failure(
                InputError(
                    "cannot start the command: flowspec has \(open) files and connections open, and starting a process "
                        + "with more than about 1,350 open crashes Foundation on this Swift version (swift-corelibs-foundation "
                        + "#5472); run fewer scenarios at once (--jobs) — command: \(command)"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        do {
            guard try child.start(process) else {
                return .failure(InputError("the command was stopped with its scenario: \(command)"))
            }
        } catch {
            return .failure(InputError("could not start /bin/sh: \(error.localizedDescription)"))
        }
        let timedOut = TimeoutFlag()
        // The timer holds only the group and the flag. Dispatch keeps a cancelled item's block until its deadline,
        // so a block holding `process` kept its two pipes open for the whole timeout after every command: hundreds
        // of open pipes in a suite that fetches codes by shell (see `descriptorCeiling`).
        let timer = DispatchWorkItem { [child, timedOut] in
            // Marked under the group's lock, before the kill is visible: a reader that sees `wasKilled` then also
            // sees why (under load it saw the kill first and said "stopped with its scenario").
            _ = child.killIfRunning { timedOut.set() }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        // Ends at the shell's exit, seen by `ShellExit`: Foundation's own wait (`waitUntilExit`, the termination
        // handler) lasts as long as anything the shell started holds the descriptors it inherited — a daemon's life.
        let pid = process.processIdentifier
        var exit: ShellExit?
        let printed = CommandOutput.collect(
            output: stdout.fileHandleForReading.fileDescriptor, error: stderr.fileHandleForReading.fileDescriptor,
            limit: outputLimit, stop: { _ = child.killIfRunning() }
        ) {
            exit = ShellExit.check(pid)
            return exit != nil
        }
        child.finish()
        timer.cancel()
        let status: Int32
        switch exit {
        case .status(let code)?: status = code
        // Reaped by Foundation, so it has its status (a daemon would still hold Foundation's wait: not this case).
        case .reaped?, nil:
            process.waitUntilExit()
            status = process.terminationStatus
        }
        // Closed now rather than whenever the last reference goes.
        try? stdout.fileHandleForReading.close()
        try? stderr.fileHandleForReading.close()
        if let stream = printed.overflowed {
            return .failure(
                InputError(
                    "the command printed more than \(outputLimit / (1 << 20)) MiB on its \(stream.rawValue), "
                        + "so it was stopped (a value is one short line) — command: \(command)"))
        }
        let errorText = String(decoding: printed.standardError, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        if timedOut.value {
            return .failure(InputError("the command did not finish within \(Int(timeout)) s: \(command)"))
        }
        if child.wasKilled {
            return .failure(InputError("the command was stopped with its scenario: \(command)"))
        }
        guard status == 0 else {
            let detail = errorText.isEmpty ? "" : ": " + String(errorText.suffix(300))
            return .failure(InputError("the command exited with status \(status)\(detail) — command: \(command)"))
        }
        let value = String(decoding: printed.standardOutput, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        if value.isEmpty, requiresOutput {
            return .failure(InputError("the command printed nothing — command: \(command)"))
        }
        return .success(value)
    }
}

/// The shell a command runs in, once started, and whether it has been killed. Killing reaches the whole process
/// group: the shell's children (a `sleep`, a stuck `psql`) hold the output pipe open too. A kill that comes before
/// the start stops the start. Starting and killing hold one lock, so a kill cannot fall between the spawn and
/// the pid being known — a window in which flowspec could exit and leave the command running (seen once on a
/// loaded machine: a scenario stopped by --timeout left its `sleep` behind).
private final class ChildProcessGroup: Sendable {
    private struct State {
        var pid: Int32?
        var killed = false
        /// Waited for: its pid may belong to another process by now, so it is never signalled again.
        var finished = false
    }
    private let state = Mutex(State())

    /// Starts `process` unless a kill came first (false).
    func start(_ process: Process) throws -> Bool {
        try state.withLock { state in
            if state.killed { return false }
            try process.run()
            state.pid = process.processIdentifier
            return true
        }
    }

    /// Kills the group, or stops a start still to come.
    func kill() {
        state.withLock { state in
            state.killed = true
            _ = Self.signalIfRunning(state)
        }
    }

    /// Kills the group if the shell was started and not yet waited for; true when it did.
    func killIfRunning(_ because: () -> Void = {}) -> Bool {
        state.withLock { state in
            guard Self.signalIfRunning(state) else { return false }
            because()
            state.killed = true
            return true
        }
    }

    private static func signalIfRunning(_ state: State) -> Bool {
        guard let pid = state.pid, !state.finished else { return false }
        signal(pid)
        return true
    }

    /// The shell has exited and been waited for. Its process group is killed now: a background child it left
    /// (`sleep 60 &`) dies with it rather than outliving flowspec. The group, not the pid: the shell's pid may have
    /// been reused, but a group id cannot be while a member of the group lives, and with none left the signal reaches
    /// nobody. A child that left the group (`setsid`) escapes this; it is not waited for either.
    func finish() {
        state.withLock { state in
            state.finished = true
            if let pid = state.pid { Self.signalGroup(pid) }
        }
    }

    var wasKilled: Bool { state.withLock { $0.killed } }

    private static func signalGroup(_ pid: Int32) {
        #if canImport(Glibc)
            _ = Glibc.kill(-pid, SIGKILL)
        #elseif canImport(Darwin)
            _ = Darwin.kill(-pid, SIGKILL)
        #endif
    }

    private static func signal(_ pid: Int32) {
        // The whole process group first (the shell's children), then the shell itself.
        #if canImport(Glibc)
            _ = Glibc.kill(-pid, SIGKILL)
            _ = Glibc.kill(pid, SIGKILL)
        #elseif canImport(Darwin)
            _ = Darwin.kill(-pid, SIGKILL)
            _ = Darwin.kill(pid, SIGKILL)
        #endif
    }
}

/// Whether the shell has exited, looked at without reaping it (`WNOWAIT`): Foundation reaps it, but only once every
/// copy of a descriptor it gave the shell is closed, which a daemon the command started delays for its whole life.
/// While it is a zombie its pid (and so its process group's id) cannot be reused, so killing the group is safe.
private enum ShellExit {
    /// Exited with this status (128 + the signal when killed, as a shell reports it).
    case status(Int32)
    /// Already reaped by Foundation, which has its status.
    case reaped

    static func check(_ pid: Int32) -> ShellExit? {
        var info = siginfo_t()
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | WNOHANG) != 0 {
            return errno == ECHILD ? .reaped : nil
        }
        guard info._sifields._sigchld.si_pid == pid else { return nil } // still running
        let value = info._sifields._sigchld.si_status
        return .status(info.si_code == CLD_EXITED ? value : 128 + value)
    }
}

private final class TimeoutFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var value: Bool { flag.withLock { $0 } }
}
