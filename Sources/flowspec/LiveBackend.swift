import Foundation
import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecSandbox

/// The backend live scenarios of one `run` talk to: the one the run variables point at, or — when they point
/// at none — the embedded sandbox, started in-process on free ports, supplying its own variables.
struct LiveBackend {
    /// The variables that say where backends are; giving any of them means "test that backend, not the sandbox".
    static let locationVariables = ["repairminder_url", "supabase_url", "traveling_url", "legacy_url"]

    let adapter: LiveHTTPAdapter
    let sandbox: RunningSandbox?

    static func prepare(needed: Bool, vars: inout [String: JSONValue], embedded: Bool, options: LiveHTTPOptions,
                        purpose: String = "live scenarios") async throws -> LiveBackend? {
        guard needed else { return nil }
        var sandbox: RunningSandbox?
        if embedded, !locationVariables.contains(where: { vars[$0] != nil }) {
            do {
                let started = try await Sandbox.start(SandboxOptions())
                sandbox = started
                for (name, value) in started.liveVars() where vars[name] == nil { vars[name] = .string(value) }
                Console.error("\(purpose): embedded sandbox at \(started.baseURL) (legacy API at \(started.legacyURL)); --vars-file points them at another backend")
            } catch {
                Console.error("warning: could not start the embedded sandbox (\(error)); \(purpose) without a backend are skipped")
            }
        }
        return LiveBackend(adapter: LiveHTTPAdapter(options: options), sandbox: sandbox)
    }

    func stop() async {
        await adapter.shutdown()
        await sandbox?.stop()
    }
}
