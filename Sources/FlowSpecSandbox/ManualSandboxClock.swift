import Synchronization

/// A clock that moves only when told to, for tests that embed the sandbox: advance it past a lifetime instead of
/// sleeping, and expiry tests keep the real lifetimes yet cannot flake on a slow machine. Between two `advance`
/// calls every request sees the same instant.
///
/// It starts on a whole second because JWT `exp` is whole seconds rounded down: a token issued at `start` with
/// lifetime L is valid until exactly `start + L`, so a test can name the last valid instant and the first expired one.
package final class ManualSandboxClock: SandboxClock {
    /// 2026-01-01T00:00:00Z.
    package static let defaultStart: Double = 1_767_225_600

    private let seconds: Mutex<Double>

    package init(start: Double = ManualSandboxClock.defaultStart) {
        seconds = Mutex(start)
    }

    package func now() -> Double {
        seconds.withLock { $0 }
    }

    /// Moves the clock forward by `interval` seconds. Time never runs backwards: a zero or negative interval
    /// leaves it where it is.
    package func advance(by interval: Double) {
        guard interval > 0 else { return }
        seconds.withLock { $0 += interval }
    }
}
