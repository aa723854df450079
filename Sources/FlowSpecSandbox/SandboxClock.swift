import Foundation

/// Where the sandbox reads the time: every token `iat`/`exp`, code and refresh-token expiry, rate-limit
/// window, outbox `sentAt` and `last_login` comes from the one instant read per request from this clock.
/// The system clock serves real clients; a test that embeds the sandbox can pass its own clock and move it
/// forward instead of sleeping until a lifetime has passed.
package protocol SandboxClock: Sendable {
    /// Seconds since 1970-01-01T00:00:00Z (the unit of JWT `iat`/`exp` and of every lifetime in `SandboxAccounts`).
    func now() -> Double
}

/// The machine's wall clock: the default for `SandboxOptions`.
package struct SystemSandboxClock: SandboxClock {
    package init() {}

    package func now() -> Double {
        Date().timeIntervalSince1970
    }
}

extension SandboxClock where Self == SystemSandboxClock {
    /// The machine's wall clock.
    package static var system: SystemSandboxClock { SystemSandboxClock() }
}
