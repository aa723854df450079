extension String {
    /// The characters from `start` up to (not including) `end` (nil: the end of the text), as `slice()` defines
    /// them: positions are rounded down, a negative one counts from the end, and both are kept within the text.
    package func sliced(from start: Double, to end: Double?) -> String {
        let length = count
        func position(_ value: Double) -> Int {
            let whole = value.rounded(.down)
            guard whole.magnitude < Double(Int.max / 2) else { return whole < 0 ? 0 : length }
            let n = Int(whole)
            return Swift.min(length, Swift.max(0, n < 0 ? length + n : n))
        }
        let from = position(start), to = end.map(position) ?? length
        guard from < to else { return "" }
        let lower = index(startIndex, offsetBy: from), upper = index(lower, offsetBy: to - from)
        return String(self[lower..<upper])
    }
}
