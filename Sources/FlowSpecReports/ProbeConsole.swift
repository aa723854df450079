import FlowSpecLanguage
import FlowSpecProbe
import FlowSpecRuntime
import Synchronization

/// The console form of a probe run: verdicts printed as they come, grouped under their session; the kinds a
/// session declares no promise for are named on one line at the end of its group.
package final class ProbeConsole: Sendable {
    private struct State {
        var lastSession: String?
        var undeclared: [ProbeVerdict] = []
    }
    private let state = Mutex(State())
    private let write: @Sendable (String) -> Void

    /// `write` takes one line (without its newline): the command decides where console lines go.
    package init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    package func print(_ verdict: ProbeVerdict) {
        state.withLock { state in
            if verdict.session != state.lastSession {
                flushUndeclared(&state)
                write("probe \(verdict.session)")
                state.lastSession = verdict.session
            }
            if verdict.status == .notApplicable, verdict.check.isEmpty, verdict.detail.hasPrefix("no `") {
                state.undeclared.append(verdict)
                return
            }
            let label =
                switch verdict.status {
                case .held: "held   "
                case .broken: "BROKEN "
                case .error: "ERROR  "
                case .skipped: "skipped"
                case .notApplicable: "n/a    "
                }
            let what = verdict.kind.rawValue + (verdict.check.isEmpty ? "" : " · \(verdict.check)")
            // The detail and the evidence hold what the backend said: one line each, control characters escaped.
            write("  \(label)  \(what) — \(TerminalText.escaped(verdict.detail))")
            if verdict.status == .broken {
                if !verdict.source.isEmpty { write("           promise: \(verdict.source)") }
                for e in verdict.evidence {
                    let line =
                        "\(e.method) \(e.url) → \(e.status.map(String.init) ?? e.failure ?? "no response")\(e.responseBody.map { " " + String($0.prefix(200)) } ?? "")"
                    write("           " + TerminalText.escaped(line))
                }
            }
        }
    }

    package func flush() {
        state.withLock { flushUndeclared(&$0) }
    }

    private func flushUndeclared(_ state: inout State) {
        guard !state.undeclared.isEmpty else { return }
        write("  n/a      \(state.undeclared.map(\.kind.rawValue).joined(separator: ", ")) — no promise declared")
        state.undeclared = []
    }

    package static func summary(_ verdicts: [ProbeVerdict]) -> String {
        func count(_ s: ProbeVerdict.Status) -> Int { verdicts.filter { $0.status == s }.count }
        let errors = count(.error)
        return
            "\(count(.held)) held, \(count(.broken)) broken, \(errors) error\(errors == 1 ? "" : "s"), \(count(.skipped)) skipped, \(count(.notApplicable)) not applicable"
    }
}
