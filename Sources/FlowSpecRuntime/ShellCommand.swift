import Foundation

/// Runs `/bin/sh -c COMMAND` and returns its trimmed standard output: how QA fetches an emailed code
/// (a database query, a mail-catcher call) without FlowSpec knowing where codes live.
public struct ShellCommand: Sendable {
    public var command: String
    /// Added to the inherited environment.
    public var environment: [String: String]
    public var timeoutSeconds: Double

    public init(_ command: String, environment: [String: String] = [:], timeoutSeconds: Double = 30) {
        self.command = command
        self.environment = environment
        self.timeoutSeconds = timeoutSeconds
    }

    public func run() async throws(InputError) -> String {
        let command = self.command
        let environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
        let timeout = timeoutSeconds
        let outcome: Result<String, InputError> = await withCheckedContinuation { continuation in
            // Blocking reads and waits belong on their own thread, not on the cooperative pool.
            Thread.detachNewThread {
                continuation.resume(returning: Self.runBlocking(command, environment, timeout))
            }
        }
        return try outcome.get()
    }

    private static func runBlocking(_ command: String, _ environment: [String: String], _ timeout: Double) -> Result<String, InputError> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return .failure(InputError("could not start /bin/sh: \(error.localizedDescription)"))
        }
        let timedOut = TimeoutFlag()
        // The shell's children (a `sleep`, a stuck `psql`) hold the output pipe open too: stop the whole group.
        let timer = DispatchWorkItem {
            guard process.isRunning else { return }
            timedOut.set()
            kill(-process.processIdentifier, SIGKILL)
            process.terminate()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        // Read stderr on another thread so a chatty command cannot fill one pipe while we drain the other.
        let errorData = PipeReader(stderr.fileHandleForReading)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        let errorText = String(decoding: errorData.wait(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if timedOut.value {
            return .failure(InputError("the command did not finish within \(Int(timeout)) s: \(command)"))
        }
        guard process.terminationStatus == 0 else {
            let detail = errorText.isEmpty ? "" : ": " + String(errorText.suffix(300))
            return .failure(InputError("the command exited with status \(process.terminationStatus)\(detail) — command: \(command)"))
        }
        let value = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if value.isEmpty { return .failure(InputError("the command printed nothing — command: \(command)")) }
        return .success(value)
    }
}

private final class TimeoutFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.withLock { flag = true } }
    var value: Bool { lock.withLock { flag } }
}

/// Drains a pipe on a background thread.
private final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
