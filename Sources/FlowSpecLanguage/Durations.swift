import Foundation

/// Durations as people write and read them: `20m`, `90s`, `1h`, `250ms`, `7d`, or plain seconds.
package enum Durations {
    /// The one table of units: expressions (`16m`) and `--allow-wait` read durations alike.
    static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400),
    ]

    /// Why a wait longer than the run may wait was not made, with the `--allow-wait` value that would allow it.
    /// `what` names the wait: "state `x` of flow `y`", "step 2".
    package static func waitNotAllowed(_ what: String, seconds: Double, limit: Double) -> String {
        "not checked: \(what) would wait \(describe(seconds)), longer than this run may wait (\(describe(limit))); allow it with --allow-wait \(flag(seconds))"
    }

    /// Seconds for `20m`, `1.5h`, `90` (seconds); nil for anything else, negatives and non-finite values.
    package static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        // Longest suffix first, so `250ms` is milliseconds rather than `250m` followed by junk.
        let unit = units.sorted { $0.suffix.count > $1.suffix.count }.first { trimmed.hasSuffix($0.suffix) }
        let number = unit.map { String(trimmed.dropLast($0.suffix.count)) } ?? trimmed
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }),
            let value = Double(number), value.isFinite, value >= 0
        else { return nil }
        let seconds = value * (unit?.seconds ?? 1)
        return seconds.isFinite ? seconds : nil
    }

    /// `45 s`, `15 min 2 s`, `3 h 5 min`, `2 d 4 h`: for messages.
    package static func describe(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "for ever" }
        if seconds < 60 {
            return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
        }
        guard seconds < 1e12 else { return String(format: "%.3g s", seconds) }
        let whole = Int(seconds.rounded(.up))
        let parts = [(whole / 86400, "d"), (whole % 86400 / 3600, "h"), (whole % 3600 / 60, "min"), (whole % 60, "s")]
        return parts.filter { $0.0 > 0 }.prefix(2).map { "\($0.0) \($0.1)" }.joined(separator: " ")
    }

    /// The smallest round value of `--allow-wait` that covers `seconds`: `16m` for 901.5 s, `45s`, `2h`.
    package static func flag(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 1e12 else { return "\(seconds)" }
        if seconds <= 60 { return "\(Int(seconds.rounded(.up)))s" }
        if seconds <= 3600 * 3 { return "\(Int((seconds / 60).rounded(.up)))m" }
        if seconds <= 86400 * 3 { return "\(Int((seconds / 3600).rounded(.up)))h" }
        return "\(Int((seconds / 86400).rounded(.up)))d"
    }
}
