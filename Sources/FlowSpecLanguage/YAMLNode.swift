import Foundation

/// A YAML node with the position it came from. The loaders read these, never raw Yams nodes,
/// so every diagnostic can point at `file:line:col`.
package struct YAMLNode: Sendable {
    package enum Content: Sendable {
        /// `quoted` is true for '…', "…" and block scalars: they are always strings.
        case scalar(String, quoted: Bool)
        case mapping([(key: YAMLNode, value: YAMLNode)])
        case sequence([YAMLNode])
    }

    package var content: Content
    package var location: SourceLocation

    package init(_ content: Content, at location: SourceLocation = SourceLocation(file: "", line: 0, column: 0)) {
        self.content = content
        self.location = location
    }

    /// The value under `key` in a mapping.
    package subscript(key: String) -> YAMLNode? { mapping?.first { $0.key.scalar == key }?.value }

    package var kindName: String {
        switch content {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    package var scalar: String? { if case .scalar(let s, _) = content { return s } else { return nil } }
    package var isQuoted: Bool { if case .scalar(_, let q) = content { return q } else { return false } }
    package var mapping: [(key: YAMLNode, value: YAMLNode)]? {
        if case .mapping(let m) = content { return m } else { return nil }
    }
    package var sequence: [YAMLNode]? { if case .sequence(let s) = content { return s } else { return nil } }

    package var isNull: Bool {
        guard case .scalar(let s, let quoted) = content, !quoted else { return false }
        return s.isEmpty || s == "~" || s == "null" || s == "Null" || s == "NULL"
    }

    /// The plain JSON reading of this node: YAML's core-schema scalars become numbers, booleans and null.
    package var json: JSONValue {
        switch content {
        case .scalar(let s, let quoted):
            if quoted { return .string(s) }
            if isNull { return .null }
            switch s {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            default: break
            }
            if let number = YAMLNode.number(s) { return .number(number) }
            return .string(s)
        case .mapping(let pairs):
            var fields: [String: JSONValue] = [:]
            // The loader admits text keys only, so `scalar` is always there.
            for pair in pairs { fields[pair.key.scalar ?? ""] = pair.value.json }
            return .object(fields)
        case .sequence(let items):
            return .array(items.map(\.json))
        }
    }

    static func number(_ s: String) -> Double? {
        guard let first = s.first, first.isNumber || first == "-" || first == "+" || first == "." else { return nil }
        if let i = Int(s) { return Double(i) }
        guard s.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else { return nil }
        return Double(s)
    }
}

/// Parses YAML text into a `YAMLNode`, turning every syntax problem into a located diagnostic (files are read by
/// the loading layer: `YAMLLoader.load(file:)` in FlowSpecLoading).
package enum YAMLLoader {
    package static func load(text: String, file: String) -> Result<YAMLNode, Diagnostic> {
        do {
            guard let node = try YAMLComposer.compose(text, file: file) else {
                return .failure(
                    .error(
                        SourceLocation(file: file, line: 1, column: 1), "the file is empty",
                        hint: "a flow starts with `flow: <system>.<name>`, a scenario with `scenario: <sentence>`"))
            }
            return .success(node)
        } catch {
            return .failure(diagnostic(for: error, file: file, text: text))
        }
    }

    private static func diagnostic(for error: YAMLComposeError, file: String, text: String) -> Diagnostic {
        switch error {
        case .syntax(let problem, let context, let line, let column):
            let at = SourceLocation(file: file, line: line, column: column)
            let cleaned = problem.replacingOccurrences(of: ", set with yaml_set_max_nest_level())", with: "")
            var message = "invalid YAML: \(cleaned)"
            if let context { message += " (\(context.text) at line \(context.line))" }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let lineText = line >= 1 && line <= lines.count ? lines[line - 1] : ""
            if lineText.prefix(while: { $0 == " " || $0 == "\t" }).contains("\t") {
                return .error(at, message, hint: "indent with spaces, not tabs")
            }
            return .error(at, message, hint: yamlHint(problem))
        case .duplicateKey(let key, let first, let second):
            return .error(
                SourceLocation(file: file, line: second.line, column: second.column), "duplicate key `\(key)`",
                hint: "`\(key)` is already set at line \(first.line); keep one")
        case .reader(let problem):
            return .error(SourceLocation(file: file, line: 1, column: 1), "cannot read YAML: \(problem)")
        case .outOfMemory:
            return .error(SourceLocation(file: file, line: 1, column: 1), "invalid YAML: out of memory")
        case .refused(let diagnostic):
            return diagnostic
        }
    }

    private static func yamlHint(_ problem: String) -> String? {
        if problem.contains("mapping values are not allowed") {
            return "a value containing `: ` must be quoted, e.g. reason: \"Error: bad code\""
        }
        if problem.contains("tab") { return "indent with spaces, not tabs" }
        if problem.contains("Maximum nesting level") { return "YAML nesting is limited to 1,000 levels" }
        if problem.contains("did not find expected key") {
            return "check the indentation of this line against its siblings"
        }
        // Inside `{ … }` (or `[ … ]`) a plain value ends at `[`, `]`, `{`, `}` or `,`, so `body.items[0].id` or
        // `matches(s, "x")` breaks the mapping, and libyaml only names the punctuation it wanted.
        if problem.contains("did not find expected ',' or '}'") || problem.contains("did not find expected ',' or ']'")
        {
            return
                "inside an inline `{ … }` or `[ … ]`, a plain value ends at `[`, `]`, `{`, `}` or `,`: quote the expression "
                + "(`when: \"body.items[0].id == 1\"`) or write the mapping as an indented block, one key per line"
        }
        return nil
    }
}
