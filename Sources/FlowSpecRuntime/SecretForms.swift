/// The encodings in which backends echo a value — percent-encoded (as query strings and form bodies are written by
/// common libraries), base64 (standard and URL-safe), HTML- and JSON-escaped — so a registered secret is masked in
/// those forms too. Look-alike Unicode forms (another normalisation, full-width letters) are not covered.
enum SecretForms {
    /// Each encoding of `secret` that differs from it, as a whole value: masked wherever the secret itself is.
    static func encodings(of secret: String) -> [String] {
        let bytes = Array(secret.utf8)
        var forms: [String] = []
        func add(_ form: String) { if form != secret, !forms.contains(form) { forms.append(form) } }
        // Tokens are mostly letters, digits and `-._~`, which no escaping changes: only base64 is worked out.
        if !bytes.allSatisfy(isUnreserved) {
            for style in PercentStyle.all { add(percent(bytes, style)) }
            if bytes.contains(where: { htmlSpecial.contains($0) }) {
                for style in HTMLStyle.all { add(html(bytes, style)) }
            }
            for style in JSONStyle.all { add(json(secret, style)) }
        }
        let unpadded = base64(bytes)
        let padding = String(repeating: "=", count: (3 - bytes.count % 3) % 3)
        let urlSafe = unpadded.map {
            $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0
        }
        for form in [unpadded, urlSafe] {
            let text = String(decoding: form, as: UTF8.self)
            add(text)
            add(text + padding)
        }
        return forms
    }

    /// The shortest base64 piece worth searching inside longer base64 text: shorter ones would match by chance.
    static let shortestBase64Piece = 6

    /// The base64 characters that `secret`'s bytes alone decide, for each of the three places it can start at inside
    /// a longer encoded text (its offset modulo 3), so `user:<password>` in Basic credentials, or a token inside an
    /// encoded JSON document, is found wherever the secret sits. Standard alphabet (`SecretAutomaton` folds the
    /// URL-safe one onto it). Pieces shorter than `shortestBase64Piece` are left out.
    static func base64Pieces(of secret: String) -> [[UInt8]] {
        let bytes = Array(secret.utf8)
        var pieces: [[UInt8]] = []
        for offset in 0..<3 {
            let encoded = base64([UInt8](repeating: 0, count: offset) + bytes)
            // Character k holds bits 6k..<6k+6 of the stream; the secret holds bits 8·offset..<8·(offset + count).
            let first = (8 * offset + 5) / 6, end = (8 * (offset + bytes.count)) / 6
            guard end - first >= shortestBase64Piece else { continue }
            pieces.append(Array(encoded[first..<end]))
        }
        return pieces
    }

    // MARK: Percent-encoding

    /// Which bytes a library leaves as they are: RFC 3986's unreserved set (and `+` for spaces in form bodies,
    /// lower-case hex digits, or non-ASCII kept as Foundation's `alphanumerics` does), JavaScript's
    /// `encodeURIComponent`, Python's `quote` (keeps `/`) and Foundation's `urlQueryAllowed`.
    struct PercentStyle: Sendable {
        enum Kept: Sendable { case unreserved, javaScript, python, foundationQuery }
        var kept: Kept
        var spaceAsPlus = false
        var lowerHex = false
        var keepsNonASCII = false

        static let all: [PercentStyle] = [
            PercentStyle(kept: .unreserved),
            PercentStyle(kept: .unreserved, lowerHex: true),
            PercentStyle(kept: .unreserved, spaceAsPlus: true),
            PercentStyle(kept: .unreserved, keepsNonASCII: true),
            PercentStyle(kept: .javaScript),
            PercentStyle(kept: .python),
            PercentStyle(kept: .foundationQuery),
        ]

        func keeps(_ byte: UInt8) -> Bool {
            if keepsNonASCII, byte >= 0x80 { return true }
            switch kept {
            case .unreserved: return isUnreserved(byte)
            case .javaScript: return isUnreserved(byte) || "!'()*".utf8.contains(byte)
            case .python: return isUnreserved(byte) || byte == UInt8(ascii: "/")
            case .foundationQuery: return byte > 0x20 && byte < 0x7F && !"\"#%<>[\\]^`{|}".utf8.contains(byte)
            }
        }
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || "-._~".utf8.contains(byte)
    }

    static func percent(_ bytes: [UInt8], _ style: PercentStyle) -> String {
        let hex = Array((style.lowerHex ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            if style.keeps(byte) {
                out.append(byte)
            } else if style.spaceAsPlus, byte == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
            } else {
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: HTML

    static let htmlSpecial = Array("&<>\"'".utf8)

    /// `&`, `<`, `>` always; quotes as each common escaper writes them (or not at all, in element text).
    enum HTMLStyle: CaseIterable {
        case textOnly, named, numeric, hexApostrophe, apos
        static let all = allCases
    }

    static func html(_ bytes: [UInt8], _ style: HTMLStyle) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            let escape: String? =
                switch byte {
                case UInt8(ascii: "&"): "&amp;"
                case UInt8(ascii: "<"): "&lt;"
                case UInt8(ascii: ">"): "&gt;"
                case UInt8(ascii: "\""): style == .textOnly ? nil : style == .numeric ? "&#34;" : "&quot;"
                case UInt8(ascii: "'"):
                    style == .textOnly ? nil : style == .hexApostrophe ? "&#x27;" : style == .apos ? "&apos;" : "&#39;"
                default: nil
                }
            if let escape { out.append(contentsOf: escape.utf8) } else { out.append(byte) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: JSON

    /// A JSON string's contents as JavaScript writes them; with `/` escaped (PHP); with non-ASCII as `\uXXXX`
    /// (Python, PHP); with `<`, `>`, `&` as `\u003c`… (Go).
    enum JSONStyle: CaseIterable {
        case minimal, slash, ascii, asciiSlash, html
        static let all = allCases
    }

    static func json(_ text: String, _ style: JSONStyle) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where style == .slash || style == .asciiSlash: out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<" where style == .html, ">" where style == .html, "&" where style == .html:
                out += unicodeEscape(scalar.value)
            default:
                if scalar.value < 0x20 || (scalar.value >= 0x80 && (style == .ascii || style == .asciiSlash)) {
                    if scalar.value > 0xFFFF {
                        let v = scalar.value - 0x10000
                        out += unicodeEscape(0xD800 + (v >> 10)) + unicodeEscape(0xDC00 + (v & 0x3FF))
                    } else {
                        out += unicodeEscape(scalar.value)
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension SecretForms {
    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 without padding (Foundation's encoder goes through `Data` and a `String` for each form).
    static func base64(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            let characters = min(4, (bytes.count - index) * 8 / 6 + 1)
            for k in 0..<characters { out.append(base64Alphabet[Int(group >> (18 - 6 * UInt32(k)) & 63)]) }
            index += 3
        }
        return out
    }
}
