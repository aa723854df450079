import Foundation

/// `flowspec sandbox` started as a user starts it, on free ports, with its live-suite variables written to a
/// file; stopped with SIGTERM as Ctrl-C would.
final class SandboxProcess: @unchecked Sendable {
    // Unchecked: `Process` is not Sendable; this object only touches it from one test at a time.
    private let process = Process()
    let varsFile: URL
    private(set) var vars: [String: String] = [:]

    private init(arguments: [String]) throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        varsFile = dir.appendingPathComponent("sandbox-vars.yaml")
        process.executableURL = FlowSpecBinary.url
        process.arguments = ["sandbox", "--port", "0", "--legacy-port", "0", "--write-vars", varsFile.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
    }

    /// Starts the sandbox and returns once it has written its variables (or died, or 30 s passed).
    static func start(arguments: [String] = []) async throws -> SandboxProcess {
        let sandbox = try SandboxProcess(arguments: arguments)
        try FlowSpecBinary.start(sandbox.process)
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: sandbox.varsFile.path), ContinuousClock.now < deadline,
            sandbox.process.isRunning
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        sandbox.vars = Self.parse((try? String(contentsOf: sandbox.varsFile, encoding: .utf8)) ?? "")
        return sandbox
    }

    /// Runs `body` against a started sandbox and stops the sandbox afterwards, whether `body` threw or not.
    static func with<T>(arguments: [String] = [], _ body: (SandboxProcess) async throws -> T) async throws -> T {
        let sandbox = try await start(arguments: arguments)
        do {
            let result = try await body(sandbox)
            _ = try await sandbox.stop()
            return result
        } catch {
            _ = try? await sandbox.stop()
            throw error
        }
    }

    private static func parse(_ text: String) -> [String: String] {
        var parsed: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            parsed[String(line[..<colon])] = value
        }
        return parsed
    }

    /// Sends SIGTERM and returns the exit status.
    func stop() async throws -> Int32 {
        if process.isRunning { process.terminate() }
        return try await BlockingWork.run { [self] in
            process.waitUntilExit()
            return process.terminationStatus
        }
    }
}
