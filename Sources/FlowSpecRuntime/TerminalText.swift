/// Text a backend sent, made safe to print on a terminal: its control characters are shown as escapes instead of
/// acting, so a backend cannot move the cursor, erase a line, recolour the screen or change the window title, and
/// cannot make a printed line look like FlowSpec's own (`\r` then `ok (success)`).
///
/// Escaped: C0 controls and DEL (`\n`, `\r`, `\t`, others as `\u{1B}`), C1 controls (U+0080–U+009F; some terminals
/// act on U+009B as on ESC `[`), and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
/// reorder what is shown. A line break is escaped too unless the caller keeps line breaks: then it must indent what
/// follows, so nothing a backend sends can start a line of its own.
package enum TerminalText {
    package enum Style: Sendable {
        /// `\u{1B}`, as Swift writes it: for plain console text.
        case swift
        /// `\u001b`: inside a JSON string printed on the console, where it reads back as the same character.
        case json
    }

    package static func escaped(_ text: String, keepingLineBreaks: Bool = false, style: Style = .swift) -> String {
        // Almost every text has none of them: answered from the bytes, without building a new string.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }),
            text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks: keepingLineBreaks) })
        else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingLineBreaks: keepingLineBreaks) else {
                out.unicodeScalars.append(scalar); continue
            }
            switch (scalar, style) {
            case ("\n", _): out += "\\n"
            case ("\r", _): out += "\\r"
            case ("\t", _): out += "\\t"
            case (_, .swift): out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            case (_, .json):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A: !keepingLineBreaks
        case 0x00..<0x20, 0x7F, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with control characters escaped but line breaks kept, each following line indented by `indent`.
    package static func indented(_ text: String, by indent: String) -> String {
        escaped(text, keepingLineBreaks: true).replacingOccurrences(of: "\n", with: "\n" + indent)
    }
}
