import FlowSpecRuntime
import FlowSpecSandbox

/// One clock for the sandbox and the scenarios playing against it: it stands still until a flow or a scenario
/// `wait`s, and then moves forward at once by exactly that much, for both sides.
extension ManualSandboxClock: FlowClock {
    package func sleep(seconds: Double) {
        advance(by: seconds)
    }
}
