import FlowSpecRuntime
import FlowSpecScenarios
import Foundation
import Synchronization

/// `exec --verbose`: prints the exchanges a run has logged since the last call, in `run --verbose`'s format
/// (`ConsoleReporter`). Called once the run has ended: a value a response carried may become a secret only in a later
/// state (stored, or sent as a credential), and what was printed before could not be masked after.
final class ExchangePrinter: Sendable {
    let log: ExchangeLog
    let redactor: Redactor
    let stream: ConsoleStream
    let reporter: ConsoleReporter
    /// How many of the log's entries are printed; parallel sub-flows may enter states at once.
    private let printed = Mutex(0)

    init(log: ExchangeLog, redactor: Redactor, stream: ConsoleStream) {
        self.log = log
        self.redactor = redactor
        self.stream = stream
        reporter = ConsoleReporter(color: stream.useColor, verbose: true)
    }

    func printNew() {
        printed.withLock { count in
            let entries = log.entries
            guard entries.count > count else { return }
            let fresh = entries.dropFirst(count).map { ExchangeRecord($0, redactor: redactor) }
            count = entries.count
            // Printed under the lock: two states entered at once must not interleave their lines.
            stream.print(String(reporter.exchanges(fresh).dropFirst()))
        }
    }
}
