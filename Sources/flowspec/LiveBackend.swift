import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecSandbox
import Foundation

/// The backend live scenarios of one `run` talk to: the one the run variables point at, or — only where they point
/// at none — the embedded sandbox, started in-process on free ports, supplying its own variables.
struct LiveBackend {
    /// The URL variables the embedded sandbox answers for (the shipped flows' base URLs read them).
    static let sandboxURLVariables: Set<String> = ["repairminder_url", "supabase_url", "traveling_url", "legacy_url"]

    let adapter: LiveHTTPAdapter
    let sandbox: RunningSandbox?

    /// `backendVariables`: the variables the base URLs of the flows this run may execute read. The sandbox starts
    /// only when the run gives none of them and some are the sandbox's: a run that names a backend of its own — its
    /// own `api_url`, or one of the shipped URLs pointed at staging — never gets a sandbox it did not ask for, and
    /// never has some scenarios answered by staging and others by the sandbox in one report.
    static func prepare(
        needed: Bool, backendVariables: Set<String>, vars: inout [String: JSONValue], embedded: Bool,
        options: LiveHTTPOptions, purpose: String = "live scenarios"
    ) async throws -> LiveBackend? {
        guard needed else { return nil }
        var sandbox: RunningSandbox?
        let given = backendVariables.filter { vars[$0] != nil }.sorted()
        let forTheSandbox = backendVariables.intersection(sandboxURLVariables).sorted()
        if embedded, given.isEmpty, !forTheSandbox.isEmpty {
            do {
                let started = try await Sandbox.start(SandboxOptions())
                sandbox = started
                for (name, value) in started.liveVars() where vars[name] == nil { vars[name] = .string(value) }
                Console.error(
                    "\(purpose): started the embedded sandbox at \(started.baseURL) (legacy API at \(started.legacyURL)) because no backend was given for "
                        + "\(forTheSandbox.joined(separator: ", ")), which the flows' base URLs read"
                        + "; give \(forTheSandbox.count == 1 ? "it" : "them") with --vars-file or --var to test another backend, or --no-sandbox"
                )
            } catch {
                Console.error(
                    "warning: could not start the embedded sandbox (\(error)); \(purpose) that need \(forTheSandbox.joined(separator: ", ")) have no backend"
                )
            }
        }
        return LiveBackend(adapter: LiveHTTPAdapter(options: options), sandbox: sandbox)
    }

    func stop() async {
        await adapter.shutdown()
        await sandbox?.stop()
    }
}
