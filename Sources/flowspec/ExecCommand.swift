import ArgumentParser
import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecReports
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

struct ExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run one flow live against a backend, from the shell.",
        discussion: """
            Inputs come from --input, else --input-command (its trimmed stdout), else a prompt on a terminal; \
            secret inputs are read without echo. An --input value is read as a scenario input is: ${…} is evaluated \
            over run variables and the clock (--input 'code=${totp(vars.totp_secret)}'), $${ is a literal ${; \
            a value typed at the prompt is taken as typed. --store keeps the token store between runs, as an app relaunch would.
            Exit 0 success state · 1 failure state or unhandled response · 2 bad usage, spec or input · 3 no response from the backend.
            """
    )

    @Argument(
        help:
            "The flow to run: its name (repairminder.staff-password-2fa) or its file (flows/repairminder/staff-password-2fa.yaml)."
    )
    var flow: String

    @Option(
        name: .customLong("base-url"),
        help: "The backend, e.g. https://staging.example.com: sets every URL variable the flow's base_url reads.")
    var baseURL: String?

    @Option(
        name: .customLong("input"),
        help:
            "An input value, name=value (repeatable); ${…} in the value is evaluated like a scenario input's, $${ is a literal ${."
    )
    var inputs: [String] = []

    @Option(
        name: .customLong("input-command"),
        help:
            "name='shell command': the command's trimmed output is the input (run when the flow asks; earlier inputs are in its environment, e.g. ${email})."
    )
    var inputCommands: [String] = []

    @Option(help: "Token store file (JSON, mode 0600): loaded before the run if it exists, saved after.")
    var store: String?

    @Option(
        name: .customLong("store-wait"), parsing: .unconditional,
        help: "Seconds to wait while another run uses the same --store (it is locked from load to save; default 60).")
    var storeWaitOption: Double?

    var storeWait: Double { storeWaitOption ?? 60 }

    @Flag(help: "Print one JSON object {flow, outcome, success, path, outputs} on stdout; progress goes to stderr.")
    var json = false

    @Flag(
        help:
            "Print every request and response once the flow has ended (secrets masked, as run --verbose does); on stderr with --json."
    )
    var verbose = false

    @OptionGroup var flowsFolder: FlowsFolderOption

    @Option(name: .customLong("allow-wait"), parsing: .unconditional, help: WaitAllowance.help)
    var allowWait = WaitAllowance(seconds: ScenarioRunner.defaultAllowWait)

    @OptionGroup var variables: VariableOptions
    @OptionGroup var http: HTTPClientOptions

    func validate() throws {
        if !(storeWait >= 0 && storeWait <= 86_400) {
            throw ValidationError(
                "--store-wait must be a number of seconds from 0 to 86400 (a day), got \(String(format: "%g", storeWait))"
            )
        }
        for i in inputs where !i.contains("=") { throw ValidationError("--input takes name=value, got `\(i)`") }
        for c in inputCommands where !c.contains("=") {
            throw ValidationError("--input-command takes name='command', got `\(c)`")
        }
        if let baseURL {
            if let problem = RequestURL.baseURLProblem(baseURL) {
                throw ValidationError("--base-url \(BaseURLCheck.shown(baseURL)) cannot be used: \(problem)")
            }
        }
    }

    func run() async throws {
        // Every flow of the project must load: the one run may call any of them, or refresh through them.
        let located = try FlowLocator(flowsFolder: flowsFolder.flows, wholeProjectMustLoad: true).locate(flow)
        let specs = located.specs
        let target = located.flow
        let flow = target.name

        var vars = try variables.resolved()
        if let baseURL {
            let trimmed = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
            for name in BaseURLVariables.read(by: target, specs: specs) where vars[name] == nil {
                vars[name] = .string(trimmed)
            }
        }

        try BaseURLCheck.validate(specs.reachable(from: [flow]).flows, vars: vars)
        let contexts = RunContextFactory(specs: specs, vars: vars, origin: .shell)
        let redactor = contexts.redactor()
        let storeFile = store
        // Held from load to save: two runs on one store would otherwise both start from the same tokens and the
        // later save would drop the earlier run's (a rotated refresh token, say).
        let lock = try await lockStore(storeFile)
        let initial = try loadStore(storeFile)
        // The store registers its credentials with the redactor as it loads them.
        let tokenStore = TokenStore(initial, redactor: redactor)

        let assignments = inputs.map(Assignment.split)
        let commands = Dictionary(inputCommands.map(Assignment.split)) { $1 }
        if let problem = ExecInputs.unknownName(assignments.map(\.0) + commands.keys, flow: target, specs: specs) {
            Console.error("error: " + problem)
            throw ExitCode(Exit.invalid)
        }
        let given: [String: [String]]
        do {
            given = try ExecInputs.rendered(assignments, vars: vars, now: await SystemClock().now(), redactor: redactor)
        } catch {
            for line in error.lines { Console.error(line) }
            throw ExitCode(Exit.invalid)
        }
        for (name, values) in given where specs.flows.values.contains(where: { $0.input(named: name)?.secret == true })
        {
            values.forEach(redactor.register)
        }

        let live = LiveHTTPAdapter(options: http.liveOptions())
        let progress = ProgressPrinter(mainFlow: flow, toStandardError: json)
        let log = ExchangeLog()
        var context = contexts.context(
            backend: .live(live, waitLimit: allowWait.seconds), clock: SystemClock(), store: tokenStore,
            inputs: LayeredInputSource(
                values: given, commands: commands,
                prompter: TerminalPrompter.available ? TerminalPrompter() : nil,
                redactor: redactor),
            redactor: redactor, log: log)
        // With --verbose, the exchanges are printed once the run has ended, as `run --verbose` prints them: only then is
        // every secret known — a value an earlier response carried may be sent as a credential, or stored, only later.
        let exchanges =
            verbose
            ? ExchangePrinter(log: log, redactor: redactor, stream: json ? .standardError : .standardOutput) : nil
        context.onState = { flowName, state in progress.entered(flowName, state) }
        let interpreter = Interpreter(context: context)
        // On the live adapter's own thread, where a plain-HTTP request is sent and answered without a thread switch.
        let result = await withTaskExecutorPreference(live.preferredExecutor) { await interpreter.run(flow: flow) }
        await live.shutdown()
        exchanges?.printNew()

        if let storeFile {
            do { try TokenStoreFile.write(tokenStore.snapshot(), to: storeFile) } catch {
                Console.error("error: could not save the token store to \(storeFile): \(error.localizedDescription)")
                throw ExitCode(Exit.invalid)
            }
        }
        _ = consume lock // unlocked once saved (and on every earlier exit, when it goes out of scope)
        if json {
            print(ExecOutcome.json(result, redactor: redactor))
            if let reason = ExecOutcome.failureReason(result, redactor: redactor) { Console.error(reason) }
        } else {
            for line in ExecOutcome.lines(result, redactor: redactor) { print(line) }
        }
        // Say what did not answer and why, unless the flow's own ending already says it.
        let noResponse = log.transportFailures()
        if !result.success, !noResponse.isEmpty, !result.isInfrastructureFailure {
            for failure in noResponse {
                Console.error("no response: \(TerminalText.escaped(redactor.redact(failure.description)))")
            }
        }
        throw ExitCode(ExitPolicy.status(of: result, noResponse: !noResponse.isEmpty).rawValue)
    }

    /// Locks `<store>.lock`, waiting at most --store-wait for another run; nil without --store.
    private func lockStore(_ path: String?) async throws -> FileLock? {
        guard let path else { return nil }
        do {
            return try await FileLock.acquire(path + ".lock", waitSeconds: storeWait) {
                Console.error(
                    "waiting for another flowspec run to finish with the token store \(path) (at most \(Durations.describe(storeWait)), --store-wait)"
                )
            }
        } catch {
            switch error.reason {
            case .heldTooLong:
                Console.error(
                    "error: the token store \(path) is in use: \(error); wait for the other run to finish, "
                        + "raise --store-wait, or pass another --store")
            case .cannotOpen:
                Console.error(
                    "error: the token store \(path) cannot be locked: \(error); check that its folder exists and is writable"
                )
            }
            throw ExitCode(Exit.invalid)
        }
    }

    private func loadStore(_ path: String?) throws -> TokenStore.Snapshot {
        guard let path else { return [:] }
        do { return try TokenStoreFile.read(at: path) } catch {
            Console.error("error: \(error)")
            throw ExitCode(Exit.invalid)
        }
    }
}

/// The variables a flow's `base_url` templates read — its own, its sub-flows' and its refresh flows' —
/// which `--base-url` sets.
enum BaseURLVariables {
    static func read(by flow: Flow, specs: SpecSet) -> Set<String> {
        Set(
            specs.reachable(from: [flow.name]).flows.flatMap {
                ($0.baseURL?.expressions ?? []).flatMap(\.varsReads).map(\.0)
            })
    }
}

/// Prints each state as a run enters it; sub-flow states are prefixed with their flow.
final class ProgressPrinter: Sendable {
    let mainFlow: String
    let toStandardError: Bool

    init(mainFlow: String, toStandardError: Bool) {
        self.mainFlow = mainFlow
        self.toStandardError = toStandardError
    }

    func entered(_ flow: String, _ state: String) {
        let line = flow == mainFlow ? "→ \(state)" : "  → \(flow): \(state)"
        if toStandardError { Console.error(line) } else { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }
}
