/// Reads the keys of one YAML mapping, reporting unknown keys (with "did you mean"), missing required keys
/// and values of the wrong shape. Loaders keep going after an error so a file's mistakes come out together.
package struct Fields {
    package let node: YAMLNode
    package let what: String
    /// The allowed keys present, in the order written, with their pairs. Searched in order: a mapping has a few
    /// keys, and hashing each one into a dictionary cost more than the searches it saved (docs/performance.md,
    /// Loading YAML, expressions and templates).
    private var values: [(key: String, pair: (key: YAMLNode, value: YAMLNode))] = []
    package var keysInOrder: [String] { values.map(\.key) }
    /// Allowed keys an unknown key was taken for (`sucess` → `success`): that key's absence is already explained
    /// by the "did you mean" error, so it is not reported a second time as missing.
    private var misspelt: Set<String> = []

    /// nil (with a diagnostic) when `node` is not a mapping. `nested`: keys that belong one level down, under the
    /// allowed key given (`base_url` → `defaults`), so the hint says where to move them instead of listing keys.
    package init?(
        _ node: YAMLNode, what: String, allowed: [String], nested: [String: String] = [:],
        diagnostics: inout Diagnostics
    ) {
        self.node = node
        self.what = what
        guard let pairs = node.mapping else {
            diagnostics.error(
                node.location, "\(what) must be a mapping of keys to values, found \(node.kindName)",
                hint: "expected keys: " + allowed.joined(separator: ", "))
            return nil
        }
        for pair in pairs {
            guard let key = pair.key.scalar else {
                diagnostics.error(pair.key.location, "keys in \(what) must be plain names")
                continue
            }
            if !allowed.contains(key) {
                let meant =
                    Fields.misnomers[key.lowercased()].flatMap { allowed.contains($0) ? $0 : nil }
                    ?? Suggestion.closest(to: key, in: allowed)
                if let meant { misspelt.insert(meant) }
                let hint =
                    nested[key].map {
                        "`\(key)` belongs under `\($0):` — write `\($0):` then `  \(key): …` indented below it"
                    }
                    ?? meant.map { "did you mean `\($0)`?" } ?? "allowed keys: " + allowed.joined(separator: ", ")
                diagnostics.error(pair.key.location, "unknown key `\(key)` in \(what)", hint: hint)
                continue
            }
            // A repeated key never reaches here (the YAML loader refuses it), so appending keeps one entry per key.
            values.append((key, pair))
        }
    }

    /// Words from other tools that mean one of ours.
    static let misnomers: [String: String] = [
        "transitions": "on", "trasitions": "on", "transition": "on", "responses": "on", "on_response": "on",
        "next": "goto", "then": "goto", "go": "goto", "target": "goto", "if": "when", "condition": "when",
        "otherwise": "else", "default": "else", "body": "json", "params": "query", "header": "headers",
        "input": "inputs", "expected": "expect", "expects": "expect", "requests_made": "requests",
    ]

    private func pair(_ key: String) -> (key: YAMLNode, value: YAMLNode)? {
        for entry in values where entry.key == key { return entry.pair }
        return nil
    }

    package func has(_ key: String) -> Bool { pair(key) != nil }
    /// Absent, and not because a misspelling of it was already reported: the case for a "missing key" error.
    package func missing(_ key: String) -> Bool { pair(key) == nil && !misspelt.contains(key) }
    package subscript(key: String) -> YAMLNode? { pair(key)?.value }
    package func keyLocation(_ key: String) -> SourceLocation? { pair(key)?.key.location }

    package func require(_ key: String, _ diagnostics: inout Diagnostics, hint: String? = nil) -> YAMLNode? {
        if let value = pair(key)?.value { return value }
        if missing(key) { diagnostics.error(node.location, "\(what) is missing the required key `\(key)`", hint: hint) }
        return nil
    }

    /// A scalar string value (numbers and booleans written plainly are accepted as their text).
    package func string(_ key: String, required: Bool = false, _ diagnostics: inout Diagnostics, hint: String? = nil)
        -> NameRef?
    {
        guard let value = required ? require(key, &diagnostics, hint: hint) : self[key] else { return nil }
        guard let text = value.scalar, !value.isNull else {
            diagnostics.error(
                value.location,
                "`\(key)` in \(what) must be a single value, found \(value.isNull ? "nothing" : value.kindName)",
                hint: hint)
            return nil
        }
        return NameRef(text, at: value.textLocation)
    }

    package func bool(_ key: String, _ diagnostics: inout Diagnostics) -> Bool? {
        guard let value = self[key] else { return nil }
        if case .bool(let b) = value.json { return b }
        if value.isQuoted, ["true", "false"].contains(value.scalar ?? "") {
            diagnostics.error(
                value.location, "`\(key)` in \(what) must be true or false, found the quoted text \"\(value.scalar!)\"",
                hint: "remove the quotes")
            return nil
        }
        diagnostics.error(
            value.location, "`\(key)` in \(what) must be true or false, found `\(value.scalar ?? value.kindName)`")
        return nil
    }

    package func int(_ key: String, _ diagnostics: inout Diagnostics, range: ClosedRange<Int>) -> Int? {
        guard let value = self[key] else { return nil }
        // The range is checked on the Double: converting 99999999999999999999 to Int first would trap.
        if case .number(let n) = value.json, n == n.rounded(), n >= Double(range.lowerBound),
            n <= Double(range.upperBound)
        {
            return Int(n)
        }
        if value.isQuoted, let text = value.scalar, Int(text) != nil {
            diagnostics.error(
                value.location, "`\(key)` in \(what) must be a whole number, found the quoted text \"\(text)\"",
                hint: "remove the quotes")
            return nil
        }
        diagnostics.error(
            value.location,
            "`\(key)` in \(what) must be a whole number from \(range.lowerBound) to \(range.upperBound), found `\(value.scalar ?? value.kindName)`"
        )
        return nil
    }

    /// A mapping value as ordered (name, node) pairs.
    package func map(_ key: String, _ diagnostics: inout Diagnostics) -> [(NameRef, YAMLNode)]? {
        guard let value = self[key] else { return nil }
        return Fields.pairs(of: value, what: "`\(key)` in \(what)", &diagnostics)
    }

    package static func pairs(of value: YAMLNode, what: String, _ diagnostics: inout Diagnostics) -> [(
        NameRef, YAMLNode
    )]? {
        if value.isNull { return [] }
        guard let pairs = value.mapping else {
            // A list of one-entry mappings is the usual slip (`- email: …`, or `- { name: email }`).
            diagnostics.error(
                value.location, "\(what) must be a mapping, found \(value.kindName)",
                hint: value.sequence == nil
                    ? nil : "write each entry as `NAME: value` on its own line, without a leading `- `")
            return nil
        }
        var out: [(NameRef, YAMLNode)] = []
        for pair in pairs {
            guard let name = pair.key.scalar else {
                diagnostics.error(pair.key.location, "keys in \(what) must be plain names")
                continue
            }
            out.append((NameRef(name, at: pair.key.location), pair.value))
        }
        return out
    }

    package func list(_ key: String, _ diagnostics: inout Diagnostics) -> [YAMLNode]? {
        guard let value = self[key] else { return nil }
        guard let items = value.sequence else {
            diagnostics.error(
                value.location, "`\(key)` in \(what) must be a list, found \(value.kindName)",
                hint: "write each item on its own line starting with `- `")
            return nil
        }
        return items
    }
}

/// Turns YAML scalars into expressions and templates, with positions.
package enum ExprReader {
    /// A YAML value read as an expression: plain numbers/booleans/null are literals, strings are parsed.
    package static func expression(_ node: YAMLNode, what: String, _ diagnostics: inout Diagnostics) -> Expr? {
        guard let text = node.scalar else {
            diagnostics.error(
                node.location, "\(what) must be an expression, found \(node.kindName)",
                hint: "to build a value, write an expression such as `body.user` or a literal such as `\"text\"`")
            return nil
        }
        if node.isNull { return Expr(.literal(.null), at: node.location, text: "null") }
        if !node.isQuoted, case let json = node.json, json.stringValue == nil {
            return Expr(.literal(json), at: node.location, text: text)
        }
        switch ExpressionParser.parse(text, at: node.textLocation) {
        case .success(let expr): return expr
        case .failure(let diagnostic):
            diagnostics.add(diagnostic)
            return nil
        }
    }

    /// A value of `set`, `store`, `outputs`, `with`, `variables`: quoted text is a template
    /// ("Signed in as ${inputs.email}"), a plain scalar an expression (body.token).
    package static func value(_ node: YAMLNode, what: String, _ diagnostics: inout Diagnostics) -> Expr? {
        if node.isQuoted {
            guard let template = template(node, what: what, &diagnostics) else { return nil }
            return template.asExpression
        }
        return expression(node, what: what, &diagnostics)
    }

    package static func template(_ node: YAMLNode, what: String, _ diagnostics: inout Diagnostics) -> Template? {
        guard let text = node.scalar else {
            diagnostics.error(node.location, "\(what) must be a text value, found \(node.kindName)")
            return nil
        }
        switch Template.parse(text, at: node.textLocation) {
        case .success(let template): return template
        case .failure(let diagnostic):
            diagnostics.add(diagnostic)
            return nil
        }
    }

    package static func templateValue(_ node: YAMLNode, _ diagnostics: inout Diagnostics) -> TemplateValue {
        switch node.content {
        case .scalar:
            let json = node.json
            guard case .string(let text) = json, text.contains("${") else { return .literal(json) }
            if let template = template(node, what: "a value", &diagnostics) { return .template(template) }
            return .literal(json)
        case .sequence(let items):
            return .array(items.map { templateValue($0, &diagnostics) })
        case .mapping(let pairs):
            return .object(pairs.map { ($0.key.scalar ?? "", templateValue($0.value, &diagnostics)) })
        }
    }
}
