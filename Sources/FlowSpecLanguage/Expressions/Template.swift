/// A string with `${expr}` holes, parsed once at load time.
package struct Template: Sendable {
    package enum Part: Sendable {
        case text(String)
        case expr(Expr)
    }

    package var parts: [Part]
    package var location: SourceLocation
    package var source: String

    /// True when the whole template is one `${expr}`: its value keeps its JSON type.
    package var singleExpression: Expr? {
        if parts.count == 1, case .expr(let e) = parts[0] { return e }
        return nil
    }

    package var expressions: [Expr] {
        parts.compactMap { if case .expr(let e) = $0 { return e } else { return nil } }
    }

    /// The template as one expression: a lone `${expr}` is that expression; anything else joins text.
    package var asExpression: Expr {
        if let single = singleExpression { return single }
        var result: Expr?
        for part in parts {
            let piece: Expr
            switch part {
            case .text(let t): piece = Expr(.literal(.string(t)), at: location, text: source)
            case .expr(let e): piece = Expr(.call(.string, [e]), at: e.location, text: e.text)
            }
            result = result.map { Expr(.binary(.add, $0, piece), at: location, text: source) } ?? piece
        }
        return result ?? Expr(.literal(.string("")), at: location, text: source)
    }

    package static func literal(_ text: String, at location: SourceLocation) -> Template {
        Template(parts: [.text(text)], location: location, source: text)
    }

    /// `location` is where the string's first character is (inside any quotes).
    package static func parse(_ source: String, at location: SourceLocation) -> Result<Template, Diagnostic> {
        // Most texts hold no `${`: they are their own single text part.
        if !source.utf8.contains(UInt8(ascii: "$")) {
            return .success(Template(parts: [.text(source)], location: location, source: source))
        }
        // ASCII texts are read byte by byte, as the lexer reads them (character i is byte i).
        if source.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            return parse(Array(source.utf8), source: source, at: location)
        }
        return parse(Array(source), source: source, at: location)
    }

    private static func parse<Unit: LexUnit>(_ chars: [Unit], source: String, at location: SourceLocation) -> Result<
        Template, Diagnostic
    > {
        func ascii(_ i: Int) -> UInt8? { chars[i].ascii }
        let dollar = UInt8(ascii: "$"), open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        var parts: [Part] = []
        var text = ""
        var i = 0
        while i < chars.count {
            if ascii(i) == dollar, i + 2 < chars.count, ascii(i + 1) == dollar, ascii(i + 2) == open {
                text += "${"
                i += 3
                continue
            }
            if ascii(i) == dollar, i + 1 < chars.count, ascii(i + 1) == open {
                let start = i + 2
                var j = start
                var depth = 0
                var quote: UInt8?
                while j < chars.count {
                    let c = ascii(j)
                    if let q = quote {
                        if c == UInt8(ascii: "\\") { j += 2; continue }
                        if c == q { quote = nil }
                    } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                        quote = c
                    } else if c == open {
                        depth += 1
                    } else if c == close {
                        if depth == 0 { break }
                        depth -= 1
                    }
                    j += 1
                }
                guard j < chars.count else {
                    return .failure(
                        .error(
                            location.advanced(by: i), "unclosed `${` in \"\(source)\"",
                            hint: "close it with `}`; write `$${` for a literal `${`"))
                }
                let inner = Unit.text(chars[start..<j])
                // Foundation's `.whitespaces`: tab and Unicode's space separators (not line breaks). Asked scalar by
                // scalar: `trimmingCharacters` would build a trimmed copy of every `${…}` only to see it is empty.
                if inner.unicodeScalars.allSatisfy({ $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }) {
                    return .failure(.error(location.advanced(by: i), "empty `${}` in \"\(source)\""))
                }
                if parts.count >= 128 {
                    return .failure(.error(location.advanced(by: i), "too many `${…}` in one text (at most 64)"))
                }
                switch ExpressionParser.parse(inner, at: location.advanced(by: start)) {
                case .success(let expr):
                    if !text.isEmpty { parts.append(.text(text)); text = "" }
                    parts.append(.expr(expr))
                case .failure(let diagnostic):
                    return .failure(diagnostic)
                }
                i = j + 1
                continue
            }
            chars[i].append(to: &text)
            i += 1
        }
        if !text.isEmpty || parts.isEmpty { parts.append(.text(text)) }
        return .success(Template(parts: parts, location: location, source: source))
    }
}

/// A JSON body whose strings are templates, keeping numbers, booleans and structure as written.
package indirect enum TemplateValue: Sendable {
    case literal(JSONValue)
    case template(Template)
    case array([TemplateValue])
    case object([(String, TemplateValue)])

    package var expressions: [Expr] {
        switch self {
        case .literal: []
        case .template(let t): t.expressions
        case .array(let items): items.flatMap(\.expressions)
        case .object(let fields): fields.flatMap { $0.1.expressions }
        }
    }
}
