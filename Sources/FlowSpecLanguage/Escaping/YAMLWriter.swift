/// Writes YAML: scalars quoted for any text, and documents that FlowSpec's loaders read back as the same nodes
/// (block mappings and lists; plain scalars stay plain, quoted ones quoted). Comments are not kept.
package enum YAMLWriter {
    /// A double-quoted YAML scalar, valid whatever the text (colons, `#`, quotes, leading dashes, newlines): what
    /// YAML cannot print as itself (see `isPrintable`) is escaped as `\u007F`.
    package static func quoted(_ text: String) -> String {
        var out = ""
        JSONValue.writeQuoted(text, into: &out) { isPrintable($0) ? nil : Markup.visible($0) }
        return out
    }

    /// What may stand in a YAML scalar as itself: YAML 1.2's printable set (section 5.1: no C0 but tab, DEL, C1,
    /// surrogates or U+FFFE/U+FFFF), less NEL, U+2028 and U+2029, which libyaml (Yams) reads as line breaks.
    package static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2028, 0x2029: false
        case 0x9, 0x20...0x7E, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `node` as a YAML document.
    package static func document(_ node: YAMLNode) -> String {
        switch node.content {
        case .mapping(let pairs) where !pairs.isEmpty: mapping(pairs, indent: "")
        case .sequence(let items) where !items.isEmpty: sequence(items, indent: "")
        default: inline(node) + "\n"
        }
    }

    static func mapping(_ pairs: [(key: YAMLNode, value: YAMLNode)], indent: String) -> String {
        var out = ""
        for (key, value) in pairs {
            out += indent + scalar(key.scalar ?? "", quoted: key.isQuoted) + ":" + nested(value, indent: indent + "  ")
        }
        return out
    }

    static func sequence(_ items: [YAMLNode], indent: String) -> String {
        var out = ""
        for item in items {
            if case .mapping(let pairs) = item.content, !pairs.isEmpty {
                // "- key: value" with the other keys under the first.
                let body = mapping(pairs, indent: indent + "  ")
                out += indent + "- " + body.dropFirst(indent.count + 2)
            } else {
                out += indent + "-" + nested(item, indent: indent + "  ")
            }
        }
        return out
    }

    /// What follows a key's colon or a list's dash: the scalar on the same line, or the block on the next ones.
    static func nested(_ node: YAMLNode, indent: String) -> String {
        switch node.content {
        case .mapping(let pairs) where !pairs.isEmpty: "\n" + mapping(pairs, indent: indent)
        case .sequence(let items) where !items.isEmpty: "\n" + sequence(items, indent: indent)
        default: " " + inline(node) + "\n"
        }
    }

    static func inline(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let text, let quoted): scalar(text, quoted: quoted)
        case .mapping: "{}"
        case .sequence: "[]"
        }
    }

    /// A scalar keeps both its text and whether it was quoted: in `set:`, `store:` and `outputs:` a plain value is an
    /// expression and a quoted one a template, so `attempts + 1` must stay plain. A plain scalar is written as it was
    /// (it was plain in its file, and block context allows at least what flow context does); only one that cannot be
    /// plain here — which no file could have held plain — is quoted.
    static func scalar(_ text: String, quoted: Bool) -> String {
        if quoted { return Self.quoted(text) }
        if text.isEmpty { return "null" }
        return canBePlain(text) ? text : Self.quoted(text)
    }

    /// Whether a block-context plain scalar reads back as `text` (YAML 1.2 section 7.3.3).
    package static func canBePlain(_ text: String) -> Bool {
        guard let first = text.first, let last = text.last, !first.isWhitespace, !last.isWhitespace, last != ":" else {
            return false
        }
        if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
            // `-`, `?` and `:` may start a plain scalar when a non-space follows (`-1`, `-x`).
            guard "-?:".contains(first), let second = text.dropFirst().first, !second.isWhitespace else { return false }
        }
        return !text.contains(": ") && !text.contains(" #")
            && !text.contains(where: { $0.isNewline || ($0.asciiValue.map { $0 < 0x20 } ?? false) })
    }
}
