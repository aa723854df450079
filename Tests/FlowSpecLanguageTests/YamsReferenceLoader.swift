import Foundation
import Yams

@testable import FlowSpecLanguage

/// The YAML loader as it was when it read Yams' node tree (up to 3d1c355), kept word for word as the reference
/// `YAMLComposer` must agree with: same trees, same locations, same diagnostics (`YAMLComposerTests`).
enum YamsReferenceLoader {
    static func load(text: String, file: String) -> Result<YAMLNode, Diagnostic> {
        let start = SourceLocation(file: file, line: 1, column: 1)
        do {
            // No implicit tag resolution (`.basic`): FlowSpec reads scalars itself (`json`, `isQuoted`), and Yams' default
            // resolver ran seven ICU regular expressions over every plain scalar — a third of loading a large flow.
            // The encoding is named because Yams' `.default` is computed on every call from the process environment
            // (3% of `flowspec check`); a Swift String is UTF-8, which is what `.default` picks anyway.
            guard let node = try Yams.compose(yaml: text, .basic, .default, .utf8) else {
                return .failure(
                    .error(
                        start, "the file is empty",
                        hint: "a flow starts with `flow: <system>.<name>`, a scenario with `scenario: <sentence>`"))
            }
            // Aliases are expanded by Yams; a node budget stops "billion laughs" documents from exhausting memory
            // while leaving room for large ordinary files.
            var aliasBudget = 1_000_000
            return try .success(convert(node, file: file, aliasBudget: &aliasBudget))
        } catch let error as YamlError {
            return .failure(diagnostic(for: error, file: file, text: text))
        } catch let diagnostic as Diagnostic {
            return .failure(diagnostic)
        } catch {
            return .failure(.error(start, "cannot parse YAML: \(error)"))
        }
    }

    private static func convert(_ node: Node, file: String, aliasBudget: inout Int) throws -> YAMLNode {
        let mark = node.mark
        let location = SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
        aliasBudget -= 1
        if aliasBudget < 0 {
            throw Diagnostic.error(location, YAMLComposer.nodeBudgetMessage, hint: YAMLComposer.nodeBudgetHint)
        }
        switch node {
        case .scalar(let scalar):
            let tag = scalar.tag.rawValue
            if tag.hasPrefix("!"), tag != "!", !tag.hasPrefix("!!") {
                throw Diagnostic.error(
                    location, "`\(tag)` starts with `!`, which YAML reads as a tag, not as text",
                    hint: "quote the whole value, e.g. when: \"!exists(body.token)\"")
            }
            let quoted = scalar.style != .plain && scalar.style != .any
            return YAMLNode(.scalar(scalar.string, quoted: quoted), at: location)
        case .mapping(let mapping):
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            for (key, value) in mapping {
                // No FlowSpec file (flow, scenario, vars, accounts) has a key that is a list or a mapping, and
                // JSON, which every key ends up in, cannot have one. Refusing them here also keeps a nested key
                // from being re-escaped into JSON text once per level, which doubled the work at each level.
                if case .scalar = key {
                } else {
                    let at = key.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) } ?? location
                    throw Diagnostic.error(
                        at,
                        "a key must be plain text, found \(key.isSequenceNode ? "a list" : "a mapping") used as a key",
                        hint: "write the key as text; to use `[`, `{` or `?` in a key, quote it")
                }
                try pairs.append(
                    (
                        convert(key, file: file, aliasBudget: &aliasBudget),
                        convert(value, file: file, aliasBudget: &aliasBudget)
                    ))
            }
            return YAMLNode(.mapping(pairs), at: location)
        case .sequence(let sequence):
            var items: [YAMLNode] = []
            for item in sequence { try items.append(convert(item, file: file, aliasBudget: &aliasBudget)) }
            return YAMLNode(.sequence(items), at: location)
        case .alias:
            // Yams resolves aliases while composing; one left over has no anchor to stand for.
            throw Diagnostic.error(
                location, "this YAML alias (*name) does not refer to an anchor (&name) defined before it")
        }
    }

    private static func diagnostic(for error: YamlError, file: String, text: String) -> Diagnostic {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let cleaned = problem.replacingOccurrences(of: ", set with yaml_set_max_nest_level())", with: "")
            var message = "invalid YAML: \(cleaned)"
            if let context { message += " (\(context.text) at line \(context.mark.line))" }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let line = mark.line >= 1 && mark.line <= lines.count ? lines[mark.line - 1] : ""
            if line.prefix(while: { $0 == " " || $0 == "\t" }).contains("\t") {
                return .error(at(mark), message, hint: "indent with spaces, not tabs")
            }
            return .error(at(mark), message, hint: yamlHint(problem))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? "?"
            let first = at(context.mark)
            let second =
                secondOccurrence(of: key, after: context.mark, in: text)
                .map { SourceLocation(file: file, line: $0.line, column: $0.column) } ?? first
            return .error(
                second, "duplicate key `\(key)`",
                hint: second == first ? nil : "`\(key)` is already set at line \(first.line); keep one")
        case .reader(let problem, _, _, _):
            return .error(SourceLocation(file: file, line: 1, column: 1), "cannot read YAML: \(problem)")
        default:
            return .error(SourceLocation(file: file, line: 1, column: 1), "invalid YAML: \(error)")
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
        // Added with the loader's own (YAMLNode.yamlHint) after the reference was frozen: hints are product text, and
        // the comparison is about trees, locations and messages.
        if problem.contains("did not find expected ',' or '}'") || problem.contains("did not find expected ',' or ']'")
        {
            return
                "inside an inline `{ … }` or `[ … ]`, a plain value ends at `[`, `]`, `{`, `}` or `,`: quote the expression "
                + "(`when: \"body.items[0].id == 1\"`) or write the mapping as an indented block, one key per line"
        }
        return nil
    }

    /// Yams reports a duplicate key at its first occurrence; users need the second. Look for the next
    /// line that starts the same key at the same column.
    private static func secondOccurrence(of key: String, after mark: Mark, in text: String) -> (line: Int, column: Int)?
    {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let indent = mark.column - 1
        for lineIndex in mark.line..<lines.count {
            let line = Array(lines[lineIndex])
            guard line.count > indent else { continue }
            let leading = line.prefix { $0 == " " || $0 == "-" }.count
            if leading < indent, !line.allSatisfy({ $0 == " " }), !line.dropFirst(leading).starts(with: ["#"]) { break }
            let rest = String(line[indent...])
            for candidate in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(candidate + ":") {
                return (lineIndex + 1, indent + 1)
            }
        }
        return nil
    }
}

private extension Node {
    var isSequenceNode: Bool { if case .sequence = self { return true } else { return false } }
}
