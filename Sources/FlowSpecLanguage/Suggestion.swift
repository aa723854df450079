/// "Did you mean" help for misspelt keys, states and names.
package enum Suggestion {
    /// Names longer than this are not typos of anything; comparing them would cost time quadratic in their length
    /// (a very long unknown flow name would hold `check` for seconds).
    static let longestWord = 256
    /// Enough for every key, state and flow a project has; past it the search stops rather than slow `check` down.
    static let mostCandidates = 10_000

    /// The closest candidate within a small edit distance, if any.
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let length = word.count
        guard length <= longestWord else { return nil }
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates.prefix(mostCandidates) {
            let candidateLength = candidate.count
            let limit = candidateLength <= 3 ? 1 : candidateLength <= 6 ? 2 : 3
            // The distance is at least the difference in length: no need to compute it.
            guard abs(candidateLength - length) <= limit else { continue }
            let distance = editDistance(lowered, candidate.lowercased())
            guard distance <= limit else { continue }
            if best == nil || distance < best!.1 { best = (candidate, distance) }
        }
        return best?.0
    }

    package static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String? {
        closest(to: word, in: candidates).map { "did you mean `\($0)`?" }
    }

    /// The hint for a name that is not among `known`: the closest one, else the whole list in the order given, else
    /// that there is none.
    package static func amongNames(_ word: String, in known: [String], listing what: String) -> String {
        if let close = didYouMean(word, in: known) { return close }
        return known.isEmpty ? "it has no \(what)" : "its \(what): " + known.joined(separator: ", ")
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
