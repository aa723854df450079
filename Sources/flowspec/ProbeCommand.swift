import ArgumentParser
import Foundation
import Synchronization
import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecProbe
import FlowSpecReports
import FlowSpecRuntime
import FlowSpecScenarios

extension ProbeKind: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Run the standard auth attacks and promises against a live backend, from the sessions' probe files.",
        discussion: """
        Each probe ends held, BROKEN (with the exchanges that prove it), ERROR (it could not be checked because something \
        it needs failed, such as the login; with the cause), not applicable, or skipped (for a reason you chose, given). \
        Probes log in with accounts of their own and log out again; with no backend variables the embedded sandbox is used. \
        See docs/probe.md. Exit 0 something was checked and nothing broke · 1 a probe broken, a check that could not be \
        made, or nothing checked at all · 2 bad spec or usage · 3 the backend did not answer.
        """
    )

    @Argument(help: "Probe files or folders (default: flows).")
    var paths: [String] = []

    @Option(help: "The flows folder (default: the nearest flows/ folder).")
    var flows: String?

    @Option(name: .customLong("probe"), help: "Only this probe kind (repeatable): \(ProbeKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kinds: [ProbeKind] = []

    @Option(name: .customLong("allow-wait"), parsing: .unconditional, help: WaitAllowance.help)
    var allowWait = WaitAllowance(seconds: ScenarioRunner.defaultAllowWait)

    @Option(name: .customLong("report"), help: "json=FILE, junit=FILE, html=FILE or tap[=FILE] (stdout without a file): every verdict with its evidence, secrets masked (repeatable).")
    var reports: [String] = []

    @Option(name: .customLong("reproduce"), help: "Write each BROKEN verdict as a flow and a live scenario in this folder, runnable with `flowspec run DIR --flows flows`.")
    var reproduceDirectory: String?

    @OptionGroup var variables: VariableOptions
    @OptionGroup var http: HTTPClientOptions

    @Flag(name: .customLong("no-sandbox"), help: "Never start the embedded sandbox.")
    var noSandbox = false

    func validate() throws {
        for report in reports where report != "tap" {
            guard let (kind, path) = Self.report(report), !path.isEmpty, ["json", "junit", "html", "tap"].contains(kind) else {
                throw ValidationError("--report takes json=FILE, junit=FILE, html=FILE or tap[=FILE], got `\(report)`")
            }
        }
    }

    func run() async throws {
        let roots = paths.isEmpty ? ["flows"] : paths
        let suite = try SuiteRun.load(paths: roots, flows: flows)
        var diagnostics = Diagnostics()
        let declarations = ProbeLoader.declarations(in: suite, under: roots, &diagnostics)
        if diagnostics.hasErrors {
            for diagnostic in diagnostics.sorted { Console.error(diagnostic.description) }
            Console.error("not probing: fix the errors above (flowspec check shows them too)")
            throw ExitCode(Exit.invalid)
        }
        guard !declarations.isEmpty else {
            Console.error("no probe files found in \(roots.joined(separator: " ")); a probe file starts with `probe: <session>` (docs/probe.md)")
            throw ExitCode(Exit.invalid)
        }
        var vars = try variables.resolved()
        let probed = declarations.flatMap { [$0.login.name] + $0.protected.map(\.name) + [$0.logout?.name].compactMap { $0 } }
        guard let backend = try await LiveBackend.prepare(needed: true, backendVariables: suite.specs.baseURLVariables(from: probed), vars: &vars,
                                                          embedded: !noSandbox, options: http.liveOptions(), purpose: "probes") else {
            throw ExitCode(Exit.infrastructure)
        }
        do { try BaseURLCheck.validate(suite.specs.flows.values, vars: vars) } catch { await backend.stop(); throw error }
        var environment = ProbeEnvironment(contexts: RunContextFactory(specs: suite.specs, vars: vars, origin: .probe), live: backend.adapter,
                                           clock: SystemClock(), allowWait: allowWait.seconds, commandTimeout: 30)
        environment.onWait = { Console.error($0) }
        let runner = ProbeRunner(environment: environment, declarations: declarations)
        let printer = ProbePrinter()
        let verdicts = await withTaskExecutorPreference(backend.adapter.preferredExecutor) {
            await runner.run(kinds: kinds.isEmpty ? ProbeKind.allCases : kinds) { printer.print($0) }
        }
        printer.flush()
        await backend.stop()
        print(ProbePrinter.summary(verdicts))
        for report in reports {
            if report == "tap" {
                print(ProbeTAPReport.render(verdicts), terminator: "")
                continue
            }
            guard let (kind, path) = Self.report(report) else { continue }
            let text = switch kind {
            case "junit": ProbeJUnitReport.render(verdicts)
            case "tap": ProbeTAPReport.render(verdicts)
            case "html": ProbeHTMLReport.render(verdicts)
            default: ProbeJSONReport.render(verdicts)
            }
            do { try OutputFile.write(Data(text.utf8), to: path) } catch {
                Console.error("cannot write \(path): \(error.localizedDescription)")
                throw ExitCode(Exit.invalid)
            }
        }
        if let reproduceDirectory { try writeReproductions(verdicts, declarations, specs: suite.specs, to: reproduceDirectory) }
        if let exit = Self.exit(for: verdicts) { throw ExitCode(exit) }
    }
}

extension ProbeCommand {
    /// 1 when a promise broke or a check could not be made for a reason of the backend's or the flows' (a login that
    /// failed); else 3 when a backend did not answer; else 1 when nothing at all was checked (every probe skipped or
    /// not applicable): a run that checked nothing is never green. nil: at least one check was made and all held.
    static func exit(for verdicts: [ProbeVerdict]) -> Int32? {
        if verdicts.contains(where: { $0.status == .broken || ($0.status == .error && !$0.infrastructure) }) { return Exit.failed }
        if verdicts.contains(where: \.infrastructure) { return Exit.infrastructure }
        if !verdicts.contains(where: { $0.status == .held }) {
            Console.error("nothing was checked: every probe was skipped or not applicable (see the reasons above); a run that checks nothing is not a pass")
            return Exit.failed
        }
        return nil
    }

    static func report(_ option: String) -> (kind: String, path: String)? {
        guard let equals = option.firstIndex(of: "=") else { return nil }
        return (String(option[..<equals]), String(option[option.index(after: equals)...]))
    }

    /// One flow (`DIR/probe/STEM.yaml`, and any flow it needs beside it) and one scenario (`DIR/STEM.yaml`) per
    /// reproducible BROKEN verdict.
    func writeReproductions(_ verdicts: [ProbeVerdict], _ declarations: [ProbeDeclaration], specs: SpecSet, to directory: String) throws {
        let writer = ReproductionWriter(specs: specs)
        let broken = verdicts.filter { $0.status == .broken }
        guard !broken.isEmpty else { return }
        let flows = URL(fileURLWithPath: directory).appendingPathComponent("probe")
        do {
            try FileManager.default.createDirectory(at: flows, withIntermediateDirectories: true)
        } catch {
            Console.error("cannot create \(flows.path): \(error.localizedDescription)")
            throw ExitCode(Exit.invalid)
        }
        for verdict in broken {
            let what = "\(verdict.session) \(verdict.kind.rawValue)\(verdict.check.isEmpty ? "" : " · \(verdict.check)")"
            guard let declaration = declarations.first(where: { $0.session.name == verdict.session }),
                  let files = writer.files(for: verdict, declaration) else {
                print("no reproduction for \(what): it needs a value a flow cannot read or a comparison a scenario cannot make (docs/probe.md, Reproductions); the JSON report has the exchanges")
                continue
            }
            let scenario = URL(fileURLWithPath: directory).appendingPathComponent("\(files.stem).yaml").path
            do {
                try AtomicFile.write(Data(files.flow.utf8), to: flows.appendingPathComponent("\(files.stem).yaml").path)
                for (stem, text) in files.moreFlows.sorted(by: { $0.key < $1.key }) {
                    try AtomicFile.write(Data(text.utf8), to: flows.appendingPathComponent("\(stem).yaml").path)
                }
                try AtomicFile.write(Data(files.scenario.utf8), to: scenario)
            } catch {
                Console.error("cannot write the reproduction of \(what): \(error.localizedDescription)")
                throw ExitCode(Exit.invalid)
            }
            print("reproduction of \(what): \(scenario)")
        }
        print("run them with: flowspec run \(directory) --flows <your flows folder> [--vars-file …]")
    }
}

/// Prints verdicts as they come, grouped under their session; the kinds a session declares no promise for are
/// named on one line at the end of its group.
final class ProbePrinter: Sendable {
    private struct State {
        var lastSession: String?
        var undeclared: [ProbeVerdict] = []
    }
    private let state = Mutex(State())

    func print(_ verdict: ProbeVerdict) {
        state.withLock { state in
            if verdict.session != state.lastSession {
                Self.flushUndeclared(&state)
                Swift.print("probe \(verdict.session)")
                state.lastSession = verdict.session
            }
            if verdict.status == .notApplicable, verdict.check.isEmpty, verdict.detail.hasPrefix("no `") {
                state.undeclared.append(verdict)
                return
            }
            let label = switch verdict.status {
            case .held: "held   "
            case .broken: "BROKEN "
            case .error: "ERROR  "
            case .skipped: "skipped"
            case .notApplicable: "n/a    "
            }
            let what = verdict.kind.rawValue + (verdict.check.isEmpty ? "" : " · \(verdict.check)")
            // The detail and the evidence hold what the backend said: one line each, control characters escaped.
            Swift.print("  \(label)  \(what) — \(TerminalText.escaped(verdict.detail))")
            if verdict.status == .broken {
                if !verdict.source.isEmpty { Swift.print("           promise: \(verdict.source)") }
                for e in verdict.evidence {
                    let line = "\(e.method) \(e.url) → \(e.status.map(String.init) ?? e.failure ?? "no response")\(e.responseBody.map { " " + String($0.prefix(200)) } ?? "")"
                    Swift.print("           " + TerminalText.escaped(line))
                }
            }
        }
    }

    func flush() {
        state.withLock { Self.flushUndeclared(&$0) }
    }

    private static func flushUndeclared(_ state: inout State) {
        guard !state.undeclared.isEmpty else { return }
        Swift.print("  n/a      \(state.undeclared.map(\.kind.rawValue).joined(separator: ", ")) — no promise declared")
        state.undeclared = []
    }

    static func summary(_ verdicts: [ProbeVerdict]) -> String {
        func count(_ s: ProbeVerdict.Status) -> Int { verdicts.filter { $0.status == s }.count }
        let errors = count(.error)
        return "\(count(.held)) held, \(count(.broken)) broken, \(errors) error\(errors == 1 ? "" : "s"), \(count(.skipped)) skipped, \(count(.notApplicable)) not applicable"
    }
}
