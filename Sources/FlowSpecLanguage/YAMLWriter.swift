/// Writes YAML that FlowSpec's loaders read back as the same nodes: block mappings and lists, and scalars either
/// plain (numbers, booleans, null and simple words, which read back the same) or double-quoted in JSON string
/// syntax, which YAML reads the same and which escapes newlines and control characters. Comments are not kept.
public enum YAMLWriter {
    /// A double-quoted YAML scalar.
    public static func quoted(_ text: String) -> String { JSONValue.string(text).compactJSON }

    /// `node` as a YAML document.
    public static func document(_ node: YAMLNode) -> String {
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

    /// A plain scalar keeps its reading (a number, a boolean, null, a word); anything else is quoted, which reads as
    /// the same text. A quoted scalar stays quoted, so it stays text.
    static func scalar(_ text: String, quoted: Bool) -> String {
        guard !quoted else { return Self.quoted(text) }
        let plain = YAMLNode(.scalar(text, quoted: false))
        switch plain.json {
        case .number, .bool, .null: return text.isEmpty ? "null" : text
        default: break
        }
        let simple = text.first.map { $0.isLetter || $0 == "_" } == true
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-./".contains($0)) }
        return simple ? text : Self.quoted(text)
    }
}
