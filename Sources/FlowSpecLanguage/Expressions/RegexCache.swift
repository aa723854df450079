import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Compiles regular expressions with NSRegularExpression. Patterns in flows are compiled once at load time;
/// the compiled objects are immutable, so sharing them across tasks is safe.
///
/// Matching is bounded in time. The pattern comes from a flow's author but the text from a backend or a user,
/// and ICU backtracks: `((a*)*)*b` against 31 `a`s took 14 s, against 100 over a minute. ICU calls back
/// periodically while it works when asked to report progress; past the budget the callback stops the match and
/// the caller gets `RegexTimedOut` to report where the pattern was written.
///
/// A pattern `SimplePattern` can match is not given to ICU until a text outside printable ASCII needs it: compiling
/// the first ICU pattern of a process builds ICU's static character sets, which a cold `check` would otherwise pay
/// for on every start (docs/performance.md, Checks without ICU). Every pattern `SimplePattern` accepts is valid ICU
/// syntax with the same meaning (`SimplePatternTests`), so accepting it without ICU says the same as ICU would.
package struct CompiledRegex: Sendable {
    package let pattern: String
    /// The same pattern matched without ICU, when it is one of the simple anchored forms flows write.
    let simple: SimplePattern?
    private let icu: LazyICURegex

    /// Nil when ICU does not accept the pattern.
    init?(_ pattern: String) {
        self.pattern = pattern
        simple = SimplePattern(pattern)
        if simple != nil {
            icu = LazyICURegex(pattern: pattern, compiled: nil)
        } else {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
            icu = LazyICURegex(pattern: pattern, compiled: regex)
        }
    }

    /// Longer than any sensible pattern needs on any sensible text, short enough that a run does not seem to
    /// hang. It grows with the text (a microsecond per character) because ICU's progress callbacks, one per
    /// starting position, cost time of their own: a 5 MB scan took over half a second in a debug build on a loaded
    /// machine. Catastrophic backtracking is exponential in short texts, so the linear part never hides it.
    package static func budgetSeconds(forLength length: Int) -> Double { 0.5 + Double(length) / 1_000_000 }

    package func firstMatch(in text: String) throws(RegexTimedOut) -> Bool {
        // Anchored at both ends, on a text without line ends: the first match is the whole text or nothing.
        if let answer = simple?.wholeMatch(text) { return answer }
        return try firstRange(in: text) != nil
    }

    /// The whole string must match, as input `pattern:` rules require.
    package func wholeMatch(_ text: String) throws(RegexTimedOut) -> Bool {
        if let answer = simple?.wholeMatch(text) { return answer }
        guard let range = try firstRange(in: text) else { return false }
        return range.location == 0 && range.length == (text as NSString).length
    }

    private func firstRange(in text: String) throws(RegexTimedOut) -> NSRange? {
        let whole = NSRange(text.startIndex..., in: text)
        let budget = Self.budgetSeconds(forLength: whole.length)
        // The budget is CPU time of this thread (the match runs on it, start to end): it bounds the work the pattern
        // makes, not how busy the machine is — a loaded CI runner must not turn a linear scan into a "timeout".
        let deadline = Self.threadCPUNanoseconds() + UInt64(budget * 1_000_000_000)
        var found: NSRange?
        var timedOut = false
        var callbacks = 0
        guard let regex = icu.regex else { return nil }
        regex.enumerateMatches(in: text, options: [.reportProgress], range: whole) { result, _, stop in
            if let result {
                found = result.range
                stop.pointee = true
                return
            }
            // Reading the clock on every callback would cost more than the scan itself on long texts.
            callbacks &+= 1
            if callbacks & 15 == 0, Self.threadCPUNanoseconds() > deadline {
                timedOut = true
                stop.pointee = true
            }
        }
        if timedOut { throw RegexTimedOut(pattern: pattern, textLength: text.count, budgetSeconds: budget) }
        return found
    }
}

extension CompiledRegex {
    static func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// A match given up after `CompiledRegex.budgetSeconds(forLength:)`. It names the pattern and the text's length, never the
/// text: that may be a token or a password.
package struct RegexTimedOut: Error, Sendable, CustomStringConvertible {
    package let pattern: String
    package let textLength: Int
    package let budgetSeconds: Double

    package var description: String {
        "matching the pattern \(pattern) against a \(textLength)-character text took more than \(Durations.describe(budgetSeconds)) of CPU time, so it was stopped; "
            + "nested repetition such as (a*)* or (a|aa)+ makes a pattern backtrack exponentially — simplify it"
    }
}

package enum RegexCache {
    package static func compile(_ pattern: String) -> CompiledRegex? { CompiledRegex(pattern) }
}

/// ICU's compiled form of a pattern, made at most once, when first needed.
// @unchecked: NSRegularExpression is immutable after creation and documented as thread-safe for matching; the mutex
// guards only its creation.
final class LazyICURegex: @unchecked Sendable {
    private let pattern: String
    private let compiled: Mutex<NSRegularExpression?>

    init(pattern: String, compiled: NSRegularExpression?) {
        self.pattern = pattern
        self.compiled = Mutex(compiled)
    }

    /// Only patterns `SimplePattern` accepted arrive here uncompiled, and `SimplePatternTests` holds every one of
    /// those valid ICU syntax; were one not, it would match nothing rather than stop the run.
    var regex: NSRegularExpression? {
        compiled.withLock { state in
            if state == nil { state = try? NSRegularExpression(pattern: pattern) }
            return Shared(regex: state)
        }.regex
    }

    /// Lets the compiled object leave the lock; see the class's note on why sharing it is safe.
    private struct Shared: @unchecked Sendable { let regex: NSRegularExpression? }
}
