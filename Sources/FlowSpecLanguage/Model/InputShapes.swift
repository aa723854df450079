/// The shapes `email`, `phone` and (without a pattern) `code` inputs must have, checked without a regular expression engine: every given input
/// is checked on every run, and ICU's matcher costs far more than these shapes need (docs/performance.md, Checks
/// without ICU). `InputShapeTests` holds these equal to
/// the patterns they replace, `^[^@\s]+@[^@\s]+\.[^@\s]+$`, `^\+[1-9][0-9]{1,14}$` and `^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$`.
enum InputShapes {
    /// Something, `@`, then a domain with a dot that is neither its first nor its last character; no `@` or white
    /// space anywhere.
    static func isEmail(_ value: String) -> Bool {
        if let ascii = asciiBytes(value) {
            // The same rule on bytes; ASCII's white space is tab, line feed, vertical tab, form feed, return, space.
            guard let at = ascii.firstIndex(of: UInt8(ascii: "@")), at > 0 else { return false }
            let domain = ascii[(at + 1)...]
            guard domain.count >= 3, !ascii.contains(where: { $0 == 0x20 || (0x09...0x0D).contains($0) }),
                !domain.contains(UInt8(ascii: "@"))
            else { return false }
            return domain.dropFirst().dropLast().contains(UInt8(ascii: "."))
        }
        let scalars = Array(value.unicodeScalars)
        guard let at = scalars.firstIndex(of: "@"), at > 0 else { return false }
        let domain = scalars[(at + 1)...]
        guard domain.count >= 3, !scalars.contains(where: isRegexSpace), !domain.contains("@") else { return false }
        return domain.dropFirst().dropLast().contains(".")
    }

    /// E.164: `+`, a first digit 1–9, then 1 to 14 more digits (ASCII).
    static func isE164(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (3...16).contains(bytes.count), bytes[0] == UInt8(ascii: "+"),
            (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[1])
        else { return false }
        return bytes.dropFirst(2).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A one-time code without a `pattern:`: ASCII letters and digits, in one or more groups joined by single `-`
    /// (`123456`, `ABCD-EFGH`, `abcd-1234-ef56`); `^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$`. Not empty, no white space.
    static func isCode(_ value: String) -> Bool {
        var previous: UInt8 = UInt8(ascii: "-")
        for byte in value.utf8 {
            let alphanumeric = (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
            // A `-` must follow a letter or digit: none first, none doubled.
            guard alphanumeric || (byte == UInt8(ascii: "-") && previous != UInt8(ascii: "-")) else { return false }
            previous = byte
        }
        return previous != UInt8(ascii: "-")
    }

    private static func asciiBytes(_ value: String) -> [UInt8]? {
        let bytes = Array(value.utf8)
        return bytes.allSatisfy { $0 < 0x80 } ? bytes : nil
    }

    /// ICU's `\s`: Unicode's White_Space, vertical tab and NEL included.
    static func isRegexSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
}
