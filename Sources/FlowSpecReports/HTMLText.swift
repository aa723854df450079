import FlowSpecDiagrams
import FlowSpecLanguage
import Foundation

/// Text helpers of the HTML report: escaping, durations, timestamps, JSON bodies made readable.
enum HTML {
    /// `0.4 ms`, `12 ms`, `1.25 s`, `2 m 5 s`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "–" }
        if seconds < 0.001 { return String(format: "%.2f ms", seconds * 1000) }
        if seconds < 0.01 { return String(format: "%.1f ms", seconds * 1000) }
        if seconds < 1 { return String(format: "%.0f ms", seconds * 1000) }
        if seconds < 60 { return String(format: "%.2f s", seconds) }
        let whole = Int(seconds.rounded())
        return "\(whole / 60) m \(whole % 60) s"
    }

    /// `2026-11-21 10:00:00 UTC`: one time zone, so reports from CI machines compare.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// A JSON body indented for reading, keys in the order they were sent; nil when the text is not JSON
    /// (a cut body, a form, plain text), which is then shown as it is.
    static func prettyJSON(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.first == "{" || trimmed.first == "[", JSONValue.parse(trimmed) != nil else { return nil }
        let characters = Array(trimmed)
        var out = ""
        var depth = 0
        var inString = false
        var escaped = false
        func newline() { out += "\n" + String(repeating: "  ", count: depth) }
        var i = 0
        while i < characters.count {
            let c = characters[i]
            defer { i += 1 }
            if inString {
                out.append(c)
                if escaped {
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inString = false
                }
                continue
            }
            switch c {
            case "\"":
                inString = true
                out.append(c)
            case "{", "[":
                // An empty object or list stays on one line.
                var j = i + 1
                while j < characters.count, characters[j].isWhitespace { j += 1 }
                if j < characters.count, characters[j] == (c == "{" ? "}" : "]") {
                    out += c == "{" ? "{}" : "[]"
                    i = j
                } else {
                    out.append(c)
                    depth += 1
                    newline()
                }
            case "}", "]":
                depth -= 1
                newline()
                out.append(c)
            case ",":
                out.append(c)
                newline()
            case ":": out += ": "
            default:
                if !c.isWhitespace { out.append(c) }
            }
        }
        return out
    }
}
