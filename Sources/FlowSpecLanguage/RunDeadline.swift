import Synchronization

/// The moment a run must give up its work: a scenario's `--timeout`, set around the scenario by the runner.
///
/// A timer alone cannot stop work that never waits. A response parsed, a flow looping through its steps or a long
/// match runs on a thread the timer needs too (a live scenario holds the live client's only thread; `--jobs` scripted
/// scenarios can take every thread of the pool), so the timer fires only once that work is done. Long loops therefore
/// look at the deadline themselves, every so many iterations, and stop when it has passed or their task was cancelled.
///
/// Two things end it: the runner's timer (`expire()`, on whatever clock the runner measures time on — a test's own
/// clock included) and, when the runner measures on the machine's clock, that instant passing, seen by the loops
/// even while the timer cannot run. A run that stopped because of it says so (`wasObserved`), and only such a run
/// is reported timed out by the loops' doing: one that finished its work on time keeps its own report.
///
/// It travels as a task-local value, so code deep in a run (the JSON parser) sees it without every call passing it on;
/// outside a run there is none and nothing stops early.
package final class RunDeadline: Sendable {
    @TaskLocal package static var current: RunDeadline?

    /// On the machine's clock; nil when time is measured on another clock and only `expire()` ends the run.
    package let instant: ContinuousClock.Instant?
    private let expired = Atomic<Bool>(false)
    private let observed = Atomic<Bool>(false)

    /// `seconds` from now on the machine's clock, or nil for a deadline only `expire()` reaches; the caller keeps
    /// `seconds` to a number a `Duration` can hold.
    package init(afterSeconds seconds: Double?) {
        instant = seconds.map { ContinuousClock.now + .seconds($0) }
    }

    /// The runner's timer fired.
    package func expire() { expired.store(true, ordering: .relaxed) }

    package var hasPassed: Bool {
        if expired.load(ordering: .relaxed) { return true }
        guard let instant else { return false }
        return ContinuousClock.now >= instant
    }

    /// Whether some work of the run stopped early because the deadline had passed.
    package var wasObserved: Bool { observed.load(ordering: .relaxed) }

    /// Whether work on the current task should stop now: its run's deadline has passed or the task was cancelled.
    /// It reads the clock, so callers ask every few thousand iterations, not every one.
    package static var isReached: Bool {
        if Task.isCancelled { return true }
        guard let current, current.hasPassed else { return false }
        current.observed.store(true, ordering: .relaxed)
        return true
    }
}
