import FlowSpecRuntime
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal for running the binary "on a TTY": colour and the progress line only appear there.
final class PseudoTerminal: @unchecked Sendable {
    // Unchecked: the descriptors are only used by the thread that owns this terminal's run.
    let controller: Int32
    /// The side the child writes to; `isatty` is true for it.
    let device: FileHandle

    // Glibc's Swift module hides the pseudo-terminal calls (they need _XOPEN_SOURCE), so they are looked up in libc.
    private typealias OpenFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    private static func libc<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }

    init() throws {
        guard let openpt = Self.libc("posix_openpt", as: OpenFunction.self),
            let grantpt = Self.libc("grantpt", as: OpenFunction.self),
            let unlockpt = Self.libc("unlockpt", as: OpenFunction.self),
            let ptsname = Self.libc("ptsname", as: NameFunction.self)
        else {
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "libc has no pseudo-terminal calls"])
        }
        let controller = openpt(O_RDWR | O_NOCTTY)
        guard controller >= 0, grantpt(controller) == 0, unlockpt(controller) == 0, let name = ptsname(controller)
        else {
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no pseudo-terminal: errno \(errno)"])
        }
        let device = open(name, O_RDWR | O_NOCTTY)
        guard device >= 0 else {
            close(controller)
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot open \(String(cString: name))"])
        }
        self.controller = controller
        self.device = FileHandle(fileDescriptor: device, closeOnDealloc: true)
    }

    /// Everything written to the terminal until every writer has closed it (Linux then answers EIO).
    /// The terminal turns "\n" into "\r\n"; that is undone so the text compares like piped output.
    func readToEnd() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, 4096) }
            if count > 0 { bytes += buffer[0..<count] } else if count < 0, errno == EINTR { continue } else { break }
        }
        close(controller)
        return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }
}

extension FlowSpecBinary {
    struct TerminalOutput: Sendable {
        var status: Int32
        /// What reached the terminal.
        var terminal: String
        /// Standard output when it was piped rather than on the terminal.
        var piped: String
        var seconds: Double
    }

    /// Runs the binary with standard error (and standard output unless `pipeStandardOutput`) on a pseudo-terminal.
    /// `NO_COLOR` and `CI` are removed from the inherited environment; `environment` adds to it.
    static func runOnTerminal(
        _ arguments: [String], in directory: URL = root, environment: [String: String] = [:],
        pipeStandardOutput: Bool = false
    ) async throws -> TerminalOutput {
        try await BlockingWork.run {
            let terminal = try PseudoTerminal()
            let inherited = Set(["NO_COLOR", "CI"]).subtracting(environment.keys)
            let process = prepared(arguments, in: directory, environment: environment, removing: inherited)
            let out = Pipe()
            process.standardOutput = pipeStandardOutput ? out : terminal.device
            process.standardError = terminal.device
            let started = ContinuousClock.now
            try FlowSpecBinary.start(process)
            // Only the child may hold the terminal open now, so reading ends when the child exits.
            try terminal.device.close()
            if !pipeStandardOutput { try out.fileHandleForWriting.close() }
            let piped = PipeReader(out.fileHandleForReading)
            let text = terminal.readToEnd()
            let pipedText = String(decoding: piped.wait(), as: UTF8.self)
            process.waitUntilExit()
            return TerminalOutput(
                status: process.terminationStatus, terminal: text, piped: pipedText,
                seconds: (ContinuousClock.now - started).seconds)
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
