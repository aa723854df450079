import Foundation

/// Compiles regular expressions with NSRegularExpression. Patterns in flows are compiled once at load time;
/// the compiled objects are immutable, so sharing them across tasks is safe.
public struct CompiledRegex: @unchecked Sendable {
    // NSRegularExpression is immutable after creation and documented as thread-safe for matching.
    public let regex: NSRegularExpression
    public let pattern: String

    public func firstMatch(in text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The whole string must match, as input `pattern:` rules require.
    public func wholeMatch(_ text: String) -> Bool {
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return false }
        return match.range.location == 0 && match.range.length == (text as NSString).length
    }
}

public enum RegexCache {
    public static func compile(_ pattern: String) -> CompiledRegex? {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        return CompiledRegex(regex: regex, pattern: pattern)
    }
}
