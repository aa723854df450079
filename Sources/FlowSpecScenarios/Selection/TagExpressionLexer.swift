/// Splits a `--tag` expression into words, operators and parentheses, each with its 1-based column.
struct TagExpressionLexer {
    enum Kind: Equatable {
        case name(String)
        case and, or, not
        case open, close
    }

    struct Token {
        var kind: Kind
        var column: Int
        /// The text as typed, for "after \"and\"" in messages.
        var text: String
    }

    static func isNameCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || "_.:/-".contains(c))
    }

    static func tokens(of text: String) throws(TagExpressionError) -> [Token] {
        var tokens: [Token] = []
        let characters = Array(text)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            let column = i + 1
            if c.isWhitespace {
                i += 1
            } else if c == "(" || c == ")" {
                tokens.append(Token(kind: c == "(" ? .open : .close, column: column, text: String(c)))
                i += 1
            } else if isNameCharacter(c) {
                var end = i
                while end < characters.count, isNameCharacter(characters[end]) { end += 1 }
                let word = String(characters[i..<end])
                let kind: Kind =
                    switch word {
                    case "and": .and
                    case "or": .or
                    case "not": .not
                    default: .name(word)
                    }
                tokens.append(Token(kind: kind, column: column, text: word))
                i = end
            } else {
                throw TagExpressionError(
                    message: "unexpected \(describe(c)) at column \(column)\(hint(for: c))", column: column)
            }
        }
        return tokens
    }

    private static func describe(_ c: Character) -> String {
        c == "\"" ? "character '\"'" : "character \"\(c)\""
    }

    /// People type the operators of the language they know best; say which words to use instead.
    private static func hint(for c: Character) -> String {
        switch c {
        case "&": " (write `and`)"
        case "|": " (write `or`)"
        case "!", "~": " (write `not`)"
        case ",": " (combine tags with `and` or `or`)"
        default: " (tag names use letters, digits and _ . : / -)"
        }
    }
}
