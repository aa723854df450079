import Hummingbird
import Logging

extension Sandbox {
    /// For tests only (the SandboxTesting target): the same two applications `start` serves, over one fresh world,
    /// but never started, so a test can call their responders in memory (HummingbirdTesting's `.router`) instead of
    /// through a socket. `baseURL` and `legacyURL` are only what the variables name; nothing listens there.
    package static func inMemory(_ options: SandboxOptions, baseURL: String, legacyURL: String)
        -> (main: some ApplicationProtocol, legacy: some ApplicationProtocol, vars: [String: String])
    {
        let world = World(accounts: options.accounts, breaks: options.breaks)
        let main = MainBackend(world: world)
        let legacy = LegacyBackend(world: world)
        var logger = Logger(label: "flowspec.sandbox")
        logger.logLevel = .warning
        let mainResponder = SandboxResponder(handle: main.respond(to:), clock: options.clock)
        let legacyResponder = SandboxResponder(handle: { await legacy.respond(to: $0) }, clock: options.clock)
        return (
            Application(responder: mainResponder, logger: logger),
            Application(responder: legacyResponder, logger: logger),
            options.accounts.liveVars(baseURL: baseURL, legacyURL: legacyURL)
        )
    }
}
