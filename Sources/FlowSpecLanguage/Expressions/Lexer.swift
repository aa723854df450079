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
    static let durationUnits: [String: Double] = Dictionary(uniqueKeysWithValues: Durations.units.map { ($0.suffix, $0.seconds) })

    static func tokenize(_ text: String) throws(LexError) -> [Token] {
        let chars = Array(text)
        // Almost every expression is ASCII: then character i is byte i, and a name is copied from the bytes at once
        // rather than rebuilt from characters (the lexer was a sixth of checking a large flow).
        let bytes: [UInt8]? = chars.count == text.utf8.count ? Array(text.utf8) : nil
        func slice(_ range: Range<Int>) -> String {
            if let bytes { return String(decoding: bytes[range], as: UTF8.self) }
            return String(chars[range])
        }
        // `Character.isLetter` and `isNumber`, answered from the byte when the text is ASCII: Unicode's tables were
        // a third of the lexer's time on a large flow. The same answers.
        func isLetter(_ i: Int) -> Bool {
            guard let bytes else { return chars[i].isLetter }
            let folded = bytes[i] | 0x20
            return folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
        }
        func isNumber(_ i: Int) -> Bool {
            guard let bytes else { return chars[i].isNumber }
            return bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
        }
        var tokens: [Token] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1; continue }
            let start = i
            if isNumber(i) {
                while i < chars.count, isNumber(i) || chars[i] == "." || chars[i] == "_" { i += 1 }
                var digits = slice(start..<i)
                if digits.utf8.contains(UInt8(ascii: "_")) { digits.removeAll { $0 == "_" } }
                guard var value = Double(digits) else { throw LexError(offset: start, message: "malformed number `\(digits)`") }
                // A duration suffix turns the number into seconds: 15m, 60s, 90d, 250ms.
                var unitEnd = i
                while unitEnd < chars.count, isLetter(unitEnd) { unitEnd += 1 }
                if unitEnd > i {
                    let unit = slice(i..<unitEnd)
                    guard let factor = durationUnits[unit] else {
                        throw LexError(offset: i, message: "unknown duration unit `\(unit)` (use ms, s, m, h or d)")
                    }
                    value *= factor
                    i = unitEnd
                }
                tokens.append(Token(kind: .number(value), offset: start))
                continue
            }
            if isLetter(i) || c == "_" {
                while i < chars.count, isLetter(i) || isNumber(i) || chars[i] == "_" { i += 1 }
                tokens.append(Token(kind: .identifier(slice(start..<i)), offset: start))
                continue
            }
            if c == "\"" || c == "'" {
                i += 1
                var value = ""
                var closed = false
                while i < chars.count {
                    let d = chars[i]
                    if d == c { closed = true; i += 1; break }
                    if d == "\\", i + 1 < chars.count {
                        let e = chars[i + 1]
                        switch e {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        default: value.append(e)
                        }
                        i += 2
                        continue
                    }
                    value.append(d)
                    i += 1
                }
                guard closed else { throw LexError(offset: start, message: "unterminated string literal") }
                tokens.append(Token(kind: .string(value), offset: start))
                continue
            }
            if i + 1 < chars.count, let two = Lexer.twoCharacterOperator(c, chars[i + 1]) {
                tokens.append(Token(kind: .op(two), offset: start))
                i += 2
                continue
            }
            if let one = Lexer.oneCharacterOperator(c) {
                tokens.append(Token(kind: .op(one), offset: start))
                i += 1
                continue
            }
            if c == "=" {
                throw LexError(offset: start, message: "`=` is not an operator; compare with `==`")
            }
            if c == "&" || c == "|" {
                throw LexError(offset: start, message: "`\(c)` is not an operator; use `\(c)\(c)`")
            }
            throw LexError(offset: start, message: "unexpected character `\(c)`")
        }
        tokens.append(Token(kind: .end, offset: chars.count))
        return tokens
    }

    static func twoCharacterOperator(_ first: Character, _ second: Character) -> String? {
        switch (first, second) {
        case ("=", "="): "=="
        case ("!", "="): "!="
        case ("<", "="): "<="
        case (">", "="): ">="
        case ("&", "&"): "&&"
        case ("|", "|"): "||"
        default: nil
        }
    }

    static func oneCharacterOperator(_ c: Character) -> String? {
        switch c {
        case "+": "+"
        case "-": "-"
        case "*": "*"
        case "/": "/"
        case "%": "%"
        case "<": "<"
        case ">": ">"
        case "!": "!"
        case "(": "("
        case ")": ")"
        case "[": "["
        case "]": "]"
        case ".": "."
        case ",": ","
        default: nil
        }
    }
}
