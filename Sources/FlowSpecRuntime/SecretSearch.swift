/// The secrets masked inside text, as a few automatons of falling size (a binary counter): secrets registered since
/// the last search become a small automaton of their own, merged into the next while it is at least half its size.
/// A run that registers one credential between searches then rebuilds each secret about log2(n) times over the
/// run instead of n times, and a search reads the text once per automaton, about log2(n) at most.
struct SecretSearch: Sendable {
    private struct Level: Sendable {
        var patterns: [[UInt8]]
        var automaton: SecretAutomaton
    }
    private var levels: [Level] = []
    private var pending: [[UInt8]] = []

    var isEmpty: Bool { levels.isEmpty && pending.isEmpty }

    mutating func add(_ pattern: [UInt8]) {
        if !pattern.isEmpty { pending.append(pattern) }
    }

    /// Builds the automatons for what was added since; a search sees only what was prepared.
    mutating func prepare() {
        guard !pending.isEmpty else { return }
        levels.append(Level(patterns: pending, automaton: SecretAutomaton(pending)))
        pending = []
        while levels.count >= 2,
            levels[levels.count - 1].automaton.patternBytes * 2 >= levels[levels.count - 2].automaton.patternBytes
        {
            let top = levels.removeLast()
            let merged = levels[levels.count - 1].patterns + top.patterns
            levels[levels.count - 1] = Level(patterns: merged, automaton: SecretAutomaton(merged))
        }
    }

    /// The byte ranges of `text` that hold a secret, overlapping matches joined, in order.
    func ranges(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for level in levels {
            level.automaton.forEachMatch(in: text) { range in
                // Matches come in order of their ends, so a match can only overlap the last ones kept.
                var start = range.lowerBound
                while let last = ranges.last, last.upperBound > start, last.lowerBound < range.upperBound {
                    start = min(start, last.lowerBound)
                    ranges.removeLast()
                }
                ranges.append(start..<range.upperBound)
            }
        }
        guard levels.count > 1, ranges.count > 1 else { return ranges }
        // Several automatons: their ranges interleave, so they are joined again in order of their starts.
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var joined: [Range<Int>] = []
        for range in ranges {
            if let last = joined.last, range.lowerBound < last.upperBound {
                joined[joined.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                joined.append(range)
            }
        }
        return joined
    }
}
