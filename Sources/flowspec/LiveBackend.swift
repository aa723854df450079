import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecSandbox
import FlowSpecScenarios
import Foundation

/// The backend live scenarios of one `run` talk to: the one the run variables point at, or — only where they point
/// at none (`EmbeddedSandboxRule`) — the embedded sandbox, started in-process on free ports, supplying its own
/// variables. The tool wires this: no library module may import both the HTTP client and the sandbox.
struct LiveBackend {
    let adapter: LiveHTTPAdapter
    let sandbox: RunningSandbox?

    static func prepare(
        _ rule: EmbeddedSandboxRule, vars: inout [String: JSONValue], options: LiveHTTPOptions
    ) async throws -> LiveBackend? {
        guard rule.needed else { return nil }
        var sandbox: RunningSandbox?
        if let names = rule.sandboxVariables(given: vars) {
            do {
                let started = try await Sandbox.start(SandboxOptions())
                sandbox = started
                for (name, value) in started.liveVars() where vars[name] == nil { vars[name] = .string(value) }
                Console.error(rule.started(baseURL: started.baseURL, legacyURL: started.legacyURL, answering: names))
            } catch {
                Console.error(rule.notStarted(because: error, answering: names))
            }
        }
        return LiveBackend(adapter: LiveHTTPAdapter(options: options), sandbox: sandbox)
    }

    func stop() async {
        await adapter.shutdown()
        await sandbox?.stop()
    }
}
