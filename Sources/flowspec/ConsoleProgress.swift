import FlowSpecScenarios
import Foundation

/// Standard output or standard error, and whether it is a terminal that wants colour.
enum ConsoleStream: Sendable {
    case standardOutput, standardError

    var descriptor: Int32 { self == .standardOutput ? STDOUT_FILENO : STDERR_FILENO }
    var isTerminal: Bool { isatty(descriptor) != 0 }
    /// Colour on a terminal, never with `NO_COLOR` (https://no-color.org) or when piped.
    var useColor: Bool { ProcessInfo.processInfo.environment["NO_COLOR"] == nil && isTerminal }

    func print(_ text: String) {
        let handle = self == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
        handle.write(Data((text + "\n").utf8))
    }
}

/// Prints each scenario's report in scenario order as soon as every earlier one is done, so output is
/// deterministic whatever order concurrent scenarios finish in; on a terminal, a run that lasts over a
/// second also gets a one-line progress counter on standard error, erased before anything else prints.
actor ConsoleProgress {
    private var pending: [Int: String?] = [:]
    private var next = 0
    private var done = 0
    private var failed = 0
    private let total: Int
    private let reporter: ConsoleReporter
    private let quiet: Bool
    private let stream: ConsoleStream
    private let started = ContinuousClock.now
    private var showing = false
    private var ticker: Task<Void, Never>?

    init(total: Int, reporter: ConsoleReporter, quiet: Bool, stream: ConsoleStream) {
        self.total = total
        self.reporter = reporter
        self.quiet = quiet
        self.stream = stream
    }

    /// Starts the progress line after a second, on a terminal only.
    func start() {
        guard ConsoleStream.standardError.isTerminal, ProcessInfo.processInfo.environment["CI"] == nil else { return }
        ticker = Task { [weak self] in
            try? await Task.sleep(for: .seconds(1))
            while !Task.isCancelled {
                await self?.draw()
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    func finished(_ index: Int, _ report: ScenarioReport) {
        done += 1
        if report.status == .failed { failed += 1 }
        pending[index] = .some(quiet && report.status != .failed ? nil : reporter.line(for: report))
        var lines: [String] = []
        while let entry = pending[next] {
            if let text = entry { lines.append(text) }
            pending[next] = nil
            next += 1
        }
        guard !lines.isEmpty else { return }
        erase()
        for line in lines { stream.print(line) }
        if showing { draw() }
    }

    /// Stops and erases the progress line; call before the summary.
    func finish() {
        ticker?.cancel()
        erase()
        showing = false
    }

    private func draw() {
        showing = true
        let seconds = Int((ContinuousClock.now - started).components.seconds)
        let failures = failed > 0 ? ", \(failed) failed" : ""
        FileHandle.standardError.write(Data("\r\u{1B}[K[\(done)/\(total)]\(failures) · \(seconds) s".utf8))
    }

    private func erase() {
        if showing { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
