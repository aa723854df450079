/// How to start a sandbox. Port 0 asks the OS for a free port (tests run many sandboxes in parallel).
package struct SandboxOptions: Sendable {
    package var host: String
    package var port: Int
    /// The legacy Repair Minder backend listens on its own port because it shares paths (`/api/auth/login`) with the newer API.
    package var legacyPort: Int
    package var accounts: SandboxAccounts
    /// Deliberately broken promises, for proving the live suite's teeth. Meant to be used one at a time.
    package var breaks: Set<SandboxBreak>
    /// Where every request reads the time. Tests pass a clock they move by hand, so expiry needs no sleeping.
    package var clock: any SandboxClock

    package init(
        host: String = "127.0.0.1", port: Int = 0, legacyPort: Int = 0, accounts: SandboxAccounts = .defaults,
        breaks: Set<SandboxBreak> = [], clock: any SandboxClock = .system
    ) {
        self.host = host
        self.port = port
        self.legacyPort = legacyPort
        self.accounts = accounts
        self.breaks = breaks
        self.clock = clock
    }
}
