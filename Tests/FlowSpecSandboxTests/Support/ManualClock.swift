import Synchronization

@testable import FlowSpecSandbox

/// A sandbox clock that only moves when a test moves it, so expiry tests need no sleeping and cannot flake
/// on a slow machine: between two `advance` calls, any number of requests see the same instant.
///
/// It starts on a whole second because JWT `exp` is whole seconds rounded down (`WallClock.expiry`): a token
/// issued at `start` with lifetime L is then valid until exactly `start + L`, and the tests can name the
/// last valid instant and the first expired one.
final class ManualClock: SandboxClock {
    /// 2026-01-01T00:00:00Z.
    static let defaultStart: Double = 1_767_225_600

    private let seconds: Mutex<Double>

    init(start: Double = ManualClock.defaultStart) {
        self.seconds = Mutex(start)
    }

    func now() -> Double {
        seconds.withLock { $0 }
    }

    /// Moves the clock forward; time never runs backwards.
    func advance(by interval: Double) {
        precondition(interval >= 0, "a ManualClock only moves forward")
        seconds.withLock { $0 += interval }
    }
}

/// The `exp` claim of a JWT as a time, so a test can show the token really is past it.
func expiry(of token: String?) -> Double? {
    token.flatMap { claims(of: $0)["exp"]?.intValue }.map(Double.init)
}
