import FlowSpecRuntime
import Foundation

/// Runs the built `flowspec` binary the way a user does, capturing output and exit code.
enum FlowSpecBinary {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let url: URL = {
        // The test bundle sits beside the executable in .build/<config>/.
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("flowspec"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("flowspec"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "flowspec"),
            root.appendingPathComponent(".build/debug/flowspec"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var all: String { stdout + stderr }
    }

    /// Runs the binary and waits for it without holding one of Swift's cooperative threads: there are only as many
    /// as cores (2 on CI), and a test blocked in `read`/`waitUntilExit` there starves every other test in the process,
    /// which makes the sandbox's and the live suite's timing-sensitive tests fail on a loaded machine.
    /// `NO_COLOR=1` is set unless `removing` names it; `removing` drops inherited variables (`CI`, say).
    static func run(
        _ arguments: [String], in directory: URL = root, environment: [String: String] = [:],
        removing: Set<String> = []
    ) async throws -> Output {
        try await BlockingWork.run {
            try runBlocking(arguments, in: directory, environment: environment, removing: removing)
        }
    }

    private static func runBlocking(
        _ arguments: [String], in directory: URL, environment: [String: String],
        removing: Set<String>
    ) throws -> Output {
        let process = prepared(
            arguments, in: directory, environment: ["NO_COLOR": "1"].merging(environment) { $1 }, removing: removing)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try start(process)
        // Both pipes are drained at once, so a child that fills one while we wait on the other cannot stall.
        let errReader = PipeReader(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errReader.wait()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The binary with `arguments`, run from `directory`, with the inherited environment plus `environment` minus
    /// `removing`, and nothing on standard input.
    static func prepared(_ arguments: [String], in directory: URL, environment: [String: String], removing: Set<String>)
        -> Process
    {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        for name in removing { env[name] = nil }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// Starts `process`, unless so many descriptors are open that Foundation's `Process.run` would crash the whole
    /// test process (it over-reads `/proc/self/fd` past about 1,350; docs/decisions.md, Input commands): then this one test fails,
    /// saying why, and the rest of the suite goes on.
    static func start(_ process: Process, ceiling: Int = ShellCommand.defaultDescriptorCeiling) throws {
        if let open = OpenDescriptors.count(), open > ceiling { throw TooManyDescriptors(open: open, ceiling: ceiling) }
        try process.run()
    }

    struct TooManyDescriptors: Error, CustomStringConvertible {
        var open: Int
        var ceiling: Int
        var description: String {
            "not starting flowspec: this test process has \(open) descriptors open, past the \(ceiling) at which Foundation's Process.run is no longer safe; something in the suite is leaking them"
        }
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
