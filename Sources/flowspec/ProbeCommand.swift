import ArgumentParser
import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecProbe
import FlowSpecReports
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation
import Synchronization

extension ProbeKind: ExpressibleByArgument {
    package init?(argument: String) { self.init(rawValue: argument) }
    package static var allValueStrings: [String] { allCases.map(\.rawValue) }
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
            made, or nothing checked at all · 2 bad spec or usage · 3 the backend did not answer or a report could not be written.
            """
    )

    @Argument(help: "Probe files or folders (default: flows).")
    var paths: [String] = []

    @OptionGroup var flowsFolder: FlowsFolderOption

    @Option(
        name: .customLong("probe"),
        help: "Only this probe kind (repeatable): \(ProbeKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kinds: [ProbeKind] = []

    @Option(name: .customLong("allow-wait"), parsing: .unconditional, help: WaitAllowance.help)
    var allowWait = WaitAllowance(seconds: ScenarioRunner.defaultAllowWait)

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Write a report of every verdict with its evidence, secrets masked: \(ReportFormats.probe.map { $0.name + ($0.requiresFile == nil ? "[=FILE]" : "=FILE") }.joined(separator: ", ")) (repeatable).",
            discussion: "Reports without a file go to standard output; the console lines then go to standard error."),
        transform: { text in
            try ReportRequest.parse(text, formats: ReportFormats.probe).mapError { ValidationError($0.description) }
                .get()
        })
    var reports: [ReportRequest] = []

    @Option(
        name: .customLong("reproduce"),
        help:
            "Write each BROKEN verdict as a flow and a live scenario in this folder, runnable with `flowspec run DIR --flows flows`."
    )
    var reproduceDirectory: String?

    @OptionGroup var variables: VariableOptions
    @OptionGroup var http: HTTPClientOptions

    @Flag(name: .customLong("no-sandbox"), help: "Never start the embedded sandbox.")
    var noSandbox = false

    func validate() throws {
        if let conflict = ReportRequest.conflict(in: reports) { throw ValidationError(conflict) }
    }

    /// Where console lines go: standard error when a report owns standard output.
    var consoleStream: ConsoleStream { reports.contains { $0.path == nil } ? .standardError : .standardOutput }

    func run() async throws {
        let roots = paths.isEmpty ? ["flows"] : paths
        if let problem = ReportRequest.missingFolder(in: reports) {
            Console.error(problem)
            throw ExitCode(Exit.invalid)
        }
        let suite = try SuiteRun.load(paths: roots, flows: flowsFolder.flows)
        var diagnostics = Diagnostics()
        let declarations = ProbeLoader.declarations(in: suite, under: roots, &diagnostics)
        if diagnostics.hasErrors {
            for diagnostic in diagnostics.sorted { Console.error(diagnostic.description) }
            Console.error("not probing: fix the errors above (flowspec check shows them too)")
            throw ExitCode(Exit.invalid)
        }
        guard !declarations.isEmpty else {
            Console.error(
                "no probe files found in \(roots.joined(separator: " ")); a probe file starts with `probe: <session>` (docs/probe.md)"
            )
            throw ExitCode(Exit.invalid)
        }
        var vars = try variables.resolved()
        let probed = declarations.flatMap {
            [$0.login.name] + $0.protected.map(\.name) + [$0.logout?.name].compactMap { $0 }
        }
        guard
            let backend = try await LiveBackend.prepare(
                EmbeddedSandboxRule(
                    needed: true, backendVariables: suite.specs.baseURLVariables(from: probed), embedded: !noSandbox,
                    purpose: "probes"),
                vars: &vars, options: http.liveOptions())
        else {
            throw ExitCode(Exit.infrastructure)
        }
        do { try BaseURLCheck.validate(suite.specs.flows.values, vars: vars) } catch {
            await backend.stop(); throw error
        }
        var environment = ProbeEnvironment(
            contexts: RunContextFactory(specs: suite.specs, vars: vars, origin: .probe), live: backend.adapter,
            clock: SystemClock(), allowWait: allowWait.seconds, commandTimeout: 30)
        environment.onWait = { Console.error($0) }
        let runner = ProbeRunner(environment: environment, declarations: declarations)
        let stream = consoleStream
        let printer = ProbeConsole { stream.print($0) }
        let verdicts = await withTaskExecutorPreference(backend.adapter.preferredExecutor) {
            await runner.run(kinds: kinds.isEmpty ? ProbeKind.allCases : kinds) { printer.print($0) }
        }
        printer.flush()
        await backend.stop()
        stream.print(ProbeConsole.summary(verdicts))
        for request in reports {
            guard let text = request.format.render(probe: verdicts) else { continue }
            do { try ReportOutput.write(text, for: request) } catch {
                Console.error(error.description)
                throw ExitCode(ExitPolicy.reportNotWritten.rawValue)
            }
        }
        if let reproduceDirectory {
            do {
                try ReproductionFolder.write(
                    verdicts, declarations, into: reproduceDirectory, writer: ReproductionWriter(specs: suite.specs),
                    say: stream.print)
            } catch {
                Console.error(error.message)
                throw ExitCode(ExitPolicy.reproductionNotWritten.rawValue)
            }
        }
        if ExitPolicy.nothingChecked(verdicts) {
            Console.error(ExitPolicy.nothingCheckedInProbes)
        }
        if let status = ExitPolicy.status(of: verdicts) { throw ExitCode(status.rawValue) }
    }
}
