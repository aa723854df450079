/// A string with `${expr}` holes, parsed once at load time.
public struct Template: Sendable {
    public enum Part: Sendable {
        case text(String)
        case expr(Expr)
    }

    public var parts: [Part]
    public var location: SourceLocation
    public var source: String

    /// True when the whole template is one `${expr}`: its value keeps its JSON type.
    public var singleExpression: Expr? {
        if parts.count == 1, case .expr(let e) = parts[0] { return e }
        return nil
    }

    public var expressions: [Expr] {
        parts.compactMap { if case .expr(let e) = $0 { return e } else { return nil } }
    }

    /// The template as one expression: a lone `${expr}` is that expression; anything else joins text.
    public var asExpression: Expr {
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

    public static func literal(_ text: String, at location: SourceLocation) -> Template {
        Template(parts: [.text(text)], location: location, source: text)
    }

    /// `location` is where the string's first character is (inside any quotes).
    public static func parse(_ source: String, at location: SourceLocation) -> Result<Template, Diagnostic> {
        // Most texts hold no `${`: they are their own single text part.
        if !source.utf8.contains(UInt8(ascii: "$")) { return .success(Template(parts: [.text(source)], location: location, source: source)) }
        let chars = Array(source)
        // When the text is ASCII, character i is byte i and an expression is copied from the bytes at once.
        let bytes: [UInt8]? = chars.count == source.utf8.count ? Array(source.utf8) : nil
        var parts: [Part] = []
        var text = ""
        var i = 0
        while i < chars.count {
            if chars[i] == "$", i + 2 < chars.count, chars[i + 1] == "$", chars[i + 2] == "{" {
                text += "${"
                i += 3
                continue
            }
            if chars[i] == "$", i + 1 < chars.count, chars[i + 1] == "{" {
                let start = i + 2
                var j = start
                var depth = 0
                var quote: Character?
                while j < chars.count {
                    let c = chars[j]
                    if let q = quote {
                        if c == "\\" { j += 2; continue }
                        if c == q { quote = nil }
                    } else if c == "\"" || c == "'" {
                        quote = c
                    } else if c == "{" {
                        depth += 1
                    } else if c == "}" {
                        if depth == 0 { break }
                        depth -= 1
                    }
                    j += 1
                }
                guard j < chars.count else {
                    return .failure(.error(location.advanced(by: i), "unclosed `${` in \"\(source)\"", hint: "close it with `}`; write `$${` for a literal `${`"))
                }
                let inner = bytes.map { String(decoding: $0[start..<j], as: UTF8.self) } ?? String(chars[start..<j])
                // Foundation's `.whitespaces`: tab and Unicode's space separators (not line breaks). Asked scalar by
                // scalar, as `trimmingCharacters` was a quarter of parsing templates.
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
            text.append(chars[i])
            i += 1
        }
        if !text.isEmpty || parts.isEmpty { parts.append(.text(text)) }
        return .success(Template(parts: parts, location: location, source: source))
    }
}

/// A JSON body whose strings are templates, keeping numbers, booleans and structure as written.
public indirect enum TemplateValue: Sendable {
    case literal(JSONValue)
    case template(Template)
    case array([TemplateValue])
    case object([(String, TemplateValue)])

    public var expressions: [Expr] {
        switch self {
        case .literal: []
        case .template(let t): t.expressions
        case .array(let items): items.flatMap(\.expressions)
        case .object(let fields): fields.flatMap { $0.1.expressions }
        }
    }
}
