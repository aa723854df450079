import FlowSpecLanguage

extension Array {
    /// Fisher–Yates driven by SplitMix64: the same seed always gives the same permutation.
    package func shuffled(seed: UInt64) -> [Element] {
        var result = self
        var generator = SplitMix64(seed: seed)
        var i = result.count - 1
        while i > 0 {
            let j = Int(generator.below(UInt64(i + 1)))
            result.swapAt(i, j)
            i -= 1
        }
        return result
    }
}
