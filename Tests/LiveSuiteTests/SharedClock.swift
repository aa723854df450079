import Foundation
import FlowSpecRuntime
import FlowSpecSandbox
import Synchronization

/// One clock for the sandbox and the scenarios playing against it: it stands still until a flow or a scenario
/// `wait`s, and then moves forward at once by exactly that much, for both sides.
final class SharedClock: FlowClock, SandboxClock {
    private let seconds: Mutex<Double>

    /// Starts at the current whole second, so tokens look ordinary to flows that compare `exp` with `now`.
    init() {
        seconds = Mutex(Date().timeIntervalSince1970.rounded(.down))
    }

    func now() -> Double {
        seconds.withLock { $0 }
    }

    func sleep(seconds interval: Double) {
        guard interval > 0 else { return }
        seconds.withLock { $0 += interval }
    }
}
