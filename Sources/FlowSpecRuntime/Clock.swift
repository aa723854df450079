import FlowSpecLanguage
import Foundation
import Synchronization

/// Time as flows see it: `now`, `wait`, token expiry.
package protocol FlowClock: Sendable {
    /// Unix seconds.
    func now() async -> Double
    func sleep(seconds: Double) async
}

/// Wall-clock time for live runs.
package struct SystemClock: FlowClock {
    package init() {}
    package func now() async -> Double { Date().timeIntervalSince1970 }
    package func sleep(seconds: Double) async {
        guard seconds > 0 else { return }
        // Runs are bounded by --allow-wait long before this; the cap only keeps the nanosecond count in range.
        try? await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
    }
}

/// Scripted runs: `wait 16m` moves time forward instantly, so runs are fast and deterministic.
/// A lock, not an actor: nothing here waits, and a run reads the clock at every step (an actor hop each time).
package final class VirtualClock: FlowClock, Sendable {
    private let current: Mutex<Double>

    package init(start: Double = VirtualTime.defaultStart) { current = Mutex(start) }

    package func now() -> Double { current.withLock { $0 } }
    package func sleep(seconds: Double) { if seconds > 0 { current.withLock { $0 += seconds } } }
}

/// How long things take (an exchange, a scenario), for reports: monotonic seconds from any fixed origin. Apart from
/// `FlowClock`, which is the time flows see (virtual in scripted runs) — a scripted run still takes real time.
/// Tests inject their own, so durations in reports are exact instead of measured.
package protocol Stopwatch: Sendable {
    func seconds() -> Double
}

/// The monotonic clock: never jumps when the wall clock is set.
package struct MonotonicStopwatch: Stopwatch {
    private let origin = ContinuousClock.now
    package init() {}
    package func seconds() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
