/// Splits expression text into tokens, each with its offset for precise error columns.
struct Token: Equatable {
    enum Kind: Equatable {
        case number(Double)
        case string(String)
        case identifier(String)
        case op(String)
        case end
    }
    var kind: Kind
    var offset: Int
}

struct LexError: Error {
    var offset: Int
    var message: String
}

enum Lexer {
    static let durationUnits: [String: Double] = Dictionary(
        uniqueKeysWithValues: Durations.units.map { ($0.suffix, $0.seconds) })

    static func tokenize(_ text: String) throws(LexError) -> [Token] {
        // Almost every expression is ASCII: then it is read byte by byte, character i being byte i. Splitting the
        // text into characters (grapheme breaking) and Unicode's tables were most of the lexer's time.
        // (`\r\n` is one character, so a text with `\r` is read as characters.)
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return try tokenize(Array(text.utf8)) }
        return try tokenize(Array(text))
    }

    /// Offsets count units: characters, which are bytes when the text is ASCII.
    private static func tokenize<Unit: LexUnit>(_ chars: [Unit]) throws(LexError) -> [Token] {
        func ascii(_ i: Int) -> UInt8? { chars[i].ascii }
        var tokens: [Token] = []
        var i = 0
        while i < chars.count {
            let c = ascii(i)
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1; continue }
            let start = i
            if chars[i].isNumber {
                while i < chars.count,
                    chars[i].isNumber || ascii(i) == UInt8(ascii: ".") || ascii(i) == UInt8(ascii: "_")
                { i += 1 }
                var digits = Unit.text(chars[start..<i])
                if digits.utf8.contains(UInt8(ascii: "_")) { digits.removeAll { $0 == "_" } }
                guard var value = Double(digits) else {
                    throw LexError(offset: start, message: "malformed number `\(digits)`")
                }
                // A duration suffix turns the number into seconds: 15m, 60s, 90d, 250ms.
                var unitEnd = i
                while unitEnd < chars.count, chars[unitEnd].isLetter { unitEnd += 1 }
                if unitEnd > i {
                    let unit = Unit.text(chars[i..<unitEnd])
                    guard let factor = durationUnits[unit] else {
                        throw LexError(offset: i, message: "unknown duration unit `\(unit)` (use ms, s, m, h or d)")
                    }
                    value *= factor
                    i = unitEnd
                }
                tokens.append(Token(kind: .number(value), offset: start))
                continue
            }
            if chars[i].isLetter || c == UInt8(ascii: "_") {
                while i < chars.count, chars[i].isLetter || chars[i].isNumber || ascii(i) == UInt8(ascii: "_") {
                    i += 1
                }
                tokens.append(Token(kind: .identifier(Unit.text(chars[start..<i])), offset: start))
                continue
            }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i += 1
                var value = ""
                var closed = false
                while i < chars.count {
                    let d = ascii(i)
                    if d == c { closed = true; i += 1; break }
                    if d == UInt8(ascii: "\\"), i + 1 < chars.count {
                        switch ascii(i + 1) {
                        case UInt8(ascii: "n"): value.append("\n")
                        case UInt8(ascii: "t"): value.append("\t")
                        default: chars[i + 1].append(to: &value)
                        }
                        i += 2
                        continue
                    }
                    chars[i].append(to: &value)
                    i += 1
                }
                guard closed else { throw LexError(offset: start, message: "unterminated string literal") }
                tokens.append(Token(kind: .string(value), offset: start))
                continue
            }
            if let c, i + 1 < chars.count, let next = ascii(i + 1), let two = Lexer.twoCharacterOperator(c, next) {
                tokens.append(Token(kind: .op(two), offset: start))
                i += 2
                continue
            }
            if let c, let one = Lexer.oneCharacterOperator(c) {
                tokens.append(Token(kind: .op(one), offset: start))
                i += 1
                continue
            }
            if c == UInt8(ascii: "=") {
                throw LexError(offset: start, message: "`=` is not an operator; compare with `==`")
            }
            if c == UInt8(ascii: "&") || c == UInt8(ascii: "|") {
                let written = Unit.text(chars[i...i])
                throw LexError(offset: start, message: "`\(written)` is not an operator; use `\(written)\(written)`")
            }
            throw LexError(offset: start, message: "unexpected character `\(Unit.text(chars[i...i]))`")
        }
        tokens.append(Token(kind: .end, offset: chars.count))
        return tokens
    }

    static func twoCharacterOperator(_ first: UInt8, _ second: UInt8) -> String? {
        switch (first, second) {
        case (UInt8(ascii: "="), UInt8(ascii: "=")): "=="
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): "!="
        case (UInt8(ascii: "<"), UInt8(ascii: "=")): "<="
        case (UInt8(ascii: ">"), UInt8(ascii: "=")): ">="
        case (UInt8(ascii: "&"), UInt8(ascii: "&")): "&&"
        case (UInt8(ascii: "|"), UInt8(ascii: "|")): "||"
        default: nil
        }
    }

    static func oneCharacterOperator(_ c: UInt8) -> String? {
        switch c {
        case UInt8(ascii: "+"): "+"
        case UInt8(ascii: "-"): "-"
        case UInt8(ascii: "*"): "*"
        case UInt8(ascii: "/"): "/"
        case UInt8(ascii: "%"): "%"
        case UInt8(ascii: "<"): "<"
        case UInt8(ascii: ">"): ">"
        case UInt8(ascii: "!"): "!"
        case UInt8(ascii: "("): "("
        case UInt8(ascii: ")"): ")"
        case UInt8(ascii: "["): "["
        case UInt8(ascii: "]"): "]"
        case UInt8(ascii: "."): "."
        case UInt8(ascii: ","): ","
        default: nil
        }
    }
}

/// What the lexer reads: bytes of an ASCII text, or characters of any other.
protocol LexUnit {
    /// The unit's ASCII code, or nil for anything else (a character of several scalars, such as `\r\n`, included).
    var ascii: UInt8? { get }
    var isLetter: Bool { get }
    var isNumber: Bool { get }
    func append(to text: inout String)
    static func text(_ units: ArraySlice<Self>) -> String
}

extension UInt8: LexUnit {
    var ascii: UInt8? { self }
    /// `Character.isLetter` and `isNumber` for an ASCII character: the same answers.
    var isLetter: Bool { self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "z") }
    var isNumber: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    func append(to text: inout String) { text.unicodeScalars.append(Unicode.Scalar(self)) }
    static func text(_ units: ArraySlice<UInt8>) -> String { String(decoding: units, as: UTF8.self) }
}

extension Character: LexUnit {
    var ascii: UInt8? { utf8.count == 1 ? utf8.first : nil }
    func append(to text: inout String) { text.append(self) }
    static func text(_ units: ArraySlice<Character>) -> String { String(units) }
}
