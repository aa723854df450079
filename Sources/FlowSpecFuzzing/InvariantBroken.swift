/// A fuzz target's invariant did not hold for an input: what broke, in a sentence. The libFuzzer shim aborts on
/// it so that libFuzzer records the input as a crash; a test replaying stored inputs reports it as a failure.
public struct InvariantBroken: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) { self.description = description }
}
