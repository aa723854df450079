/// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose whole output is fixed by its 64-bit seed, so
/// `--shuffle --seed S` gives the same order on every machine, OS and Swift version. Never used for secrets.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in 0..<bound, by rejection: the standard library's `random(in:using:)` is not
    /// promised to draw the same numbers across Swift versions, and the order must never change under a seed.
    package mutating func below(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        // Values below `threshold` would make the low residues more likely; 2^64 mod bound of them exist.
        let threshold = (0 &- bound) % bound
        while true {
            let value = next()
            if value >= threshold { return value % bound }
        }
    }
}
