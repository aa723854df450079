import FlowSpecLanguage

/// YAML written by hand for scaffolds, quoted so no value can be misread: a string is plain only when it
/// is made of letters, digits and a few safe punctuation marks and does not look like a number, boolean or null.
package enum ScaffoldYAML {
    /// YAML 1.1 and 1.2 words that a plain scalar would turn into a boolean or null.
    static let reservedWords: Set<String> = ["y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"]

    /// `text` as a YAML scalar: plain when safe, else double-quoted with escapes.
    package static func string(_ text: String) -> String {
        plainIsSafe(text) ? text : YAMLWriter.quoted(text)
    }

    static func plainIsSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        guard first.properties.isAlphabetic || first == "_" || first == "/" || first == "+" else { return false }
        if reservedWords.contains(text.lowercased()) { return false }
        if Double(text) != nil || Int(text) != nil { return false }
        // `+15555550100` is a number to some YAML readers.
        if first == "+" { return false }
        let allowed: (Unicode.Scalar) -> Bool = { s in
            (s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s))) || "_-./@".unicodeScalars.contains(s)
        }
        return text.unicodeScalars.allSatisfy(allowed)
    }

    /// A JSON value in YAML flow style: `{ a: { b: "x" } }`, `[1, 2]`, keys sorted for stable output.
    package static func flow(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return JSONValue.format(n)
        case .string(let s): return string(s)
        case .array(let items): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case .object(let fields):
            if fields.isEmpty { return "{}" }
            return "{ " + fields.keys.sorted().map { "\(string($0)): \(flow(fields[$0]!))" }.joined(separator: ", ")
                + " }"
        }
    }

    /// A comment that cannot end the line early or start a new one.
    package static func comment(_ text: String) -> String {
        "# " + text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}
