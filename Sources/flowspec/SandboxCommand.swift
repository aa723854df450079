import ArgumentParser
import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecSandbox
import Foundation

struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract:
            "Serve the reference backend (Repair Minder, Supabase Auth, Traveling; the legacy API on its own port).",
        discussion: "Runs until interrupted (Ctrl-C). Endpoints, accounts file and outbox: docs/sandbox.md."
    )

    @Option(help: "Port for Repair Minder, Supabase (/auth/v1), Traveling and the outbox (0: a free port).")
    var port: Int = 8080

    @Option(
        name: .customLong("legacy-port"),
        help: "Port for the legacy Repair Minder backend, which shares paths with the newer API (0: a free port).")
    var legacyPort: Int = 8081

    @Option(help: "Interface to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Accounts, codes for test phones and token lifetimes (YAML or JSON; see docs/sandbox.md).")
    var accounts: String?

    @Option(
        name: .customLong("break"),
        help:
            "Break one documented promise on purpose, to see the live suite catch it (repeatable; `--break list` shows them)."
    )
    var breaks: [String] = []

    @Option(
        name: .customLong("write-vars"),
        help:
            "Write the live-suite variables for this sandbox to FILE (YAML), for `flowspec run scenarios/live --vars-file FILE`."
    )
    var writeVars: String?

    func validate() throws {
        for p in [port, legacyPort] where !(0...65535).contains(p) {
            throw ValidationError("ports are 0–65535 (0 picks a free one), got \(p)")
        }
    }

    func run() async throws {
        if breaks.contains("list") {
            for b in SandboxBreak.allCases { print("\(b.rawValue)\n    \(b.promise)") }
            return
        }
        var broken: Set<SandboxBreak> = []
        for name in breaks {
            guard let b = SandboxBreak(rawValue: name) else {
                let names = SandboxBreak.allCases.map(\.rawValue)
                throw ValidationError(
                    "unknown --break `\(name)`" + (Suggestion.didYouMean(name, in: names).map { "; \($0)" } ?? "")
                        + "; `--break list` shows them")
            }
            broken.insert(b)
        }
        var options = SandboxOptions(host: host, port: port, legacyPort: legacyPort, breaks: broken)
        if let accounts {
            do { options.accounts = try SandboxAccounts.load(path: accounts) } catch {
                Console.error("error: \(error)")
                throw ExitCode(Exit.invalid)
            }
        }
        let sandbox: RunningSandbox
        do { sandbox = try await Sandbox.start(options) } catch {
            Console.error("error: \(error)")
            Console.error("    hint: another program may be using the port; `--port 0 --legacy-port 0` picks free ones")
            throw ExitCode(Exit.infrastructure)
        }
        let vars = sandbox.liveVars()
        let interrupts = Self.watchInterrupts()
        if let writeVars {
            let text =
                vars.sorted { $0.key < $1.key }.map { "\($0.key): \(YAMLWriter.quoted($0.value))" }.joined(
                    separator: "\n") + "\n"
            do { try AtomicFile.write(Data(text.utf8), to: writeVars, permissions: 0o600) } catch {
                Console.error("error: could not write \(writeVars): \(error.localizedDescription)")
                await sandbox.stop()
                throw ExitCode(Exit.invalid)
            }
        }
        print("FlowSpec sandbox")
        print("  Repair Minder, Supabase (/auth/v1), Traveling: \(sandbox.baseURL)")
        print("  legacy Repair Minder:                         \(sandbox.legacyURL)")
        print("  outbox (emailed and texted codes):            \(sandbox.baseURL)/__sandbox/outbox")
        if !broken.isEmpty { print("  BROKEN on purpose: " + broken.map(\.rawValue).sorted().joined(separator: ", ")) }
        if let writeVars { print("  live-suite variables written to \(writeVars)") }
        print("Ctrl-C stops it.")
        fflush(nil) // the banner must be visible before we block, even when piped
        await Self.waitForInterrupt(interrupts)
        await sandbox.stop()
    }

    /// Watches SIGINT and SIGTERM from now on, returning once Dispatch watches both. Done before the variables
    /// file is written: a program that stops the sandbox as soon as the file appears sent its SIGTERM while the
    /// signal was already ignored but not yet watched (`resume` registers a source later, on Dispatch's own thread),
    /// so it was lost and the sandbox ran on for ever.
    static func watchInterrupts() -> (stream: AsyncStream<Int32>, sources: [any DispatchSourceSignal]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        var sources: [any DispatchSourceSignal] = []
        let registered = DispatchSemaphore(value: 0)
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { continuation.yield(sig) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            sources.append(source)
        }
        for _ in sources { registered.wait() }
        return (stream, sources)
    }

    /// Suspends until SIGINT or SIGTERM (watched since `watchInterrupts`).
    static func waitForInterrupt(_ interrupts: (stream: AsyncStream<Int32>, sources: [any DispatchSourceSignal])) async
    {
        for await _ in interrupts.stream { break }
        interrupts.sources.forEach { $0.cancel() }
    }
}
