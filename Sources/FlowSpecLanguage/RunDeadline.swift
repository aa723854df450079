/// The moment a run must give up its work: a scenario's `--timeout`, set around the scenario by the runner.
///
/// A timer alone cannot stop work that never waits. A response parsed, a flow looping through its steps or a long
/// match runs on a thread the timer needs too (a live scenario holds the live client's only thread; `--jobs` scripted
/// scenarios can take every thread of the pool), so the timer fires only once that work is done. Long loops therefore
/// look at the deadline themselves, every so many iterations, and stop when it has passed or their task was cancelled.
///
/// It travels as a task-local value, so code deep in a run (the JSON parser) sees it without every call passing it on;
/// outside a run there is none and nothing stops early.
public struct RunDeadline: Sendable {
    @TaskLocal public static var current: RunDeadline?

    public let instant: ContinuousClock.Instant

    /// `seconds` from now; the caller keeps it to a number a `Duration` can hold.
    public init(afterSeconds seconds: Double) {
        instant = ContinuousClock.now + .seconds(seconds)
    }

    public var hasPassed: Bool { ContinuousClock.now >= instant }

    /// Whether work on the current task should stop now: its run's deadline has passed or the task was cancelled.
    /// It reads the clock, so callers ask every few thousand iterations, not every one.
    public static var isReached: Bool {
        if Task.isCancelled { return true }
        return current?.hasPassed ?? false
    }
}
