import Foundation
import Yams

/// A YAML node plus where it is (file, key path), so every value read can fail with a precise error.
struct YAMLCursor {
    let node: Node
    let path: String
    let file: String

    func fail(_ problem: String, at node: Node? = nil) -> SandboxAccountsError {
        let mark = (node ?? self.node).mark
        return SandboxAccountsError(file: file, line: mark?.line, column: mark?.column, key: path, problem: problem)
    }

    private func child(_ node: Node, _ component: String) -> YAMLCursor {
        YAMLCursor(node: node, path: path.isEmpty ? component : path + component, file: file)
    }

    /// A short rendering of the node for "got …" in errors.
    var found: String {
        switch node {
        case .scalar(let scalar):
            if isNull { return "nothing (null)" }
            return "`\(scalar.string)`"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    var isNull: Bool {
        if case .scalar(let scalar) = node {
            return scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
        }
        return false
    }

    // MARK: Containers

    /// The fields of a mapping; any key outside `allowed` is an error that lists the allowed keys.
    func mapping(allowed: [String]) throws(SandboxAccountsError) -> [String: YAMLCursor] {
        guard case .mapping(let mapping) = node else {
            throw fail("expected a mapping with keys \(allowed.joined(separator: ", ")), got \(found)")
        }
        var fields: [String: YAMLCursor] = [:]
        for (keyNode, value) in mapping {
            guard case .scalar(let keyScalar) = keyNode else {
                throw fail("expected a plain key, got a complex key", at: keyNode)
            }
            let key = keyScalar.string
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            guard allowed.contains(key) else {
                let problem = "unknown key; expected one of \(allowed.joined(separator: ", "))"
                throw SandboxAccountsError(
                    file: file, line: keyNode.mark?.line, column: keyNode.mark?.column,
                    key: keyPath, problem: problem)
            }
            guard fields[key] == nil else {
                throw SandboxAccountsError(
                    file: file, line: keyNode.mark?.line, column: keyNode.mark?.column,
                    key: keyPath, problem: "duplicate key")
            }
            fields[key] = child(value, path.isEmpty ? key : ".\(key)")
        }
        return fields
    }

    func sequence(of what: String) throws(SandboxAccountsError) -> [YAMLCursor] {
        guard case .sequence(let sequence) = node else { throw fail("expected a list of \(what), got \(found)") }
        return sequence.enumerated().map { child($0.element, "[\($0.offset)]") }
    }

    // MARK: Scalars

    /// Any non-null scalar as written (so `password: 123456` is the text "123456").
    func string() throws(SandboxAccountsError) -> String {
        guard case .scalar(let scalar) = node, !isNull else { throw fail("expected text, got \(found)") }
        return scalar.string
    }

    /// Text, or nil for an explicit null.
    func optionalString() throws(SandboxAccountsError) -> String? {
        isNull ? nil : try string()
    }

    func nonEmptyString() throws(SandboxAccountsError) -> String {
        let value = try string().trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw fail("expected non-empty text, got an empty string") }
        return value
    }

    func bool() throws(SandboxAccountsError) -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain, let value = node.bool else {
            throw fail("expected true or false, got \(found)")
        }
        return value
    }

    func int() throws(SandboxAccountsError) -> Int {
        guard case .scalar(let scalar) = node, scalar.style == .plain, let value = node.int else {
            throw fail("expected a whole number, got \(found)")
        }
        return value
    }

    /// Seconds: a number (`900`, `0.5`) or a number with a unit (`250ms`, `90s`, `15m`, `1h`, `7d`).
    /// `allowingZero`: for settings where 0 means "none" (the refresh-token reuse interval).
    func duration(allowingZero: Bool = false) throws(SandboxAccountsError) -> Double {
        let expected = "expected a duration (seconds as a number, or a number with ms, s, m, h or d), got \(found)"
        guard case .scalar(let scalar) = node, !isNull else { throw fail(expected) }
        let text = scalar.string.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        var seconds: Double?
        if let plain = Double(text) {
            seconds = plain
        } else if let (suffix, factor) = units.first(where: { text.hasSuffix($0.0) }),
            let number = Double(text.dropLast(suffix.count).trimmingCharacters(in: .whitespaces))
        {
            seconds = number * factor
        }
        guard let seconds, seconds.isFinite else { throw fail(expected) }
        if allowingZero, seconds == 0 { return 0 }
        guard seconds > 0 else { throw fail("expected a duration above zero, got \(found)") }
        return seconds
    }

    func stringList(of what: String) throws(SandboxAccountsError) -> [String] {
        var values: [String] = []
        for item in try sequence(of: what) { values.append(try item.nonEmptyString()) }
        return values
    }

    func oneOf(_ choices: [String]) throws(SandboxAccountsError) -> String {
        let value = try string()
        guard choices.contains(value) else {
            throw fail("expected one of \(choices.joined(separator: ", ")), got \(found)")
        }
        return value
    }
}
