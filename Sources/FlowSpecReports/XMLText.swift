/// Escaping for XML 1.0 text and attribute values.
///
/// XML 1.0 cannot carry most C0 control characters at all — not even as `&#1;` — so a report that copied
/// a terminal colour code or a NUL out of a response body would be rejected by every CI parser. Those
/// characters are written as the visible text `\u001B`, the way JSON would show them, so nothing is
/// silently lost and the file always parses.
enum XMLText {
    /// Text content: `&`, `<`, `>` escaped; quotes stay as they are, so JSON bodies in a failure read as JSON.
    static func text(_ value: String) -> String { escape(value, inAttribute: false) }

    /// Attribute values (always written in double quotes): also tab, newline and carriage return as character
    /// references, since XML parsers normalise raw ones in attributes to spaces.
    static func attribute(_ value: String) -> String { escape(value, inAttribute: true) }

    private static func escape(_ value: String, inAttribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += inAttribute ? "&quot;" : "\""
            case "'": out += inAttribute ? "&apos;" : "'"
            case "\t": out += inAttribute ? "&#9;" : "\t"
            case "\n": out += inAttribute ? "&#10;" : "\n"
            case "\r": out += "&#13;"
            default:
                if isAllowed(scalar) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "\\u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
                }
            }
        }
        return out
    }

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
