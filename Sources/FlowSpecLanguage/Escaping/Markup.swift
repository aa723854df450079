/// Escaping for XML and HTML — the JUnit, HTML and SVG outputs — with one policy.
///
/// `&`, `<`, `>`, `"` and `'` are always escaped, so one function serves element content and quoted attributes
/// in both languages (`&#39;`, not `&apos;`, which HTML 4 lacks). XML 1.0 cannot carry most C0 control
/// characters at all — not even as `&#1;` — so a report that copied a terminal colour code or a NUL out of a
/// response body would be rejected by every CI parser: those are written as the visible text `\u001B`, the way
/// JSON shows them, so nothing is silently lost and the file always parses.
package enum Markup {
    /// Element content, and attribute values where a raw newline may stay (HTML, SVG text).
    package static func escape(_ text: String) -> String { escape(text, whitespaceAsReferences: false) }

    /// XML attribute values: tab, newline and carriage return as character references too, since XML parsers
    /// normalise raw ones in attributes to spaces.
    package static func attribute(_ text: String) -> String { escape(text, whitespaceAsReferences: true) }

    static func escape(_ text: String, whitespaceAsReferences: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t": out += whitespaceAsReferences ? "&#9;" : "\t"
            case "\n": out += whitespaceAsReferences ? "&#10;" : "\n"
            case "\r": out += "&#13;"
            default:
                if isXMLChar(scalar) { out.unicodeScalars.append(scalar) } else { out += visible(scalar) }
            }
        }
        return out
    }

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    package static func isXMLChar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `\u001B`: a character no format may carry, shown as JSON would show it.
    package static func visible(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
