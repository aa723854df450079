/// The pause the `non-atomic-rotation` breaks put between a refresh's check and its write: the check-then-act of a
/// server that reads the token's state in one query and rotates it in another. Long enough (half a second) that a burst of
/// concurrent refreshes on a loaded two-core machine all land in the gap; a refresh sent after an answer arrived
/// comes after the write, so sequential reuse is still detected.
enum RaceWindow {
    static let pause: Duration = .milliseconds(500)

    /// Sleeps through the window; cancellation only cuts it short (the write still happens, as on a real server).
    static func wait() async {
        try? await Task.sleep(for: pause)
    }
}
