import ServiceLifecycle

/// A started sandbox. Keep it alive for as long as its backends are needed, and `stop()` it afterwards.
package final class RunningSandbox: Sendable {
    package let port: Int
    package let legacyPort: Int
    package let host: String
    private let accounts: SandboxAccounts
    private let group: ServiceGroup
    private let running: Task<Void, Never>

    init(
        host: String, port: Int, legacyPort: Int, accounts: SandboxAccounts, group: ServiceGroup,
        running: Task<Void, Never>
    ) {
        self.host = host
        self.port = port
        self.legacyPort = legacyPort
        self.accounts = accounts
        self.group = group
        self.running = running
    }

    /// The main port: Repair Minder (`/api`), Supabase (`/auth/v1`), Traveling (`/v1`), the outbox (`/__sandbox`).
    package var baseURL: String { "http://\(hostForURL):\(port)" }

    /// The legacy Repair Minder backend.
    package var legacyURL: String { "http://\(hostForURL):\(legacyPort)" }

    private var hostForURL: String { host.contains(":") ? "[\(host)]" : host }

    /// Every live-suite variable for the loaded accounts (docs/sandbox.md lists them). A variable whose kind
    /// of account the accounts do not contain is left out rather than pointed at the wrong account.
    package func liveVars() -> [String: String] {
        accounts.liveVars(baseURL: baseURL, legacyURL: legacyURL)
    }

    /// Stops accepting connections, lets requests in flight finish, and returns when both listeners are closed.
    /// Safe to call more than once.
    package func stop() async {
        await group.triggerGracefulShutdown()
        await running.value
    }
}
