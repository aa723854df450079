import Foundation

@testable import FlowSpecLanguage

/// A small JSON Schema (draft-07) validator for exactly the keywords FlowSpec's schemas use. It refuses any
/// other keyword (`unsupportedKeywords`), so a schema cannot quietly rely on something this validator skips.
struct MiniSchemaValidator {
    let root: JSONValue

    static let keywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties",
        "enum", "const", "items", "minItems", "oneOf", "anyOf", "not", "if", "then", "else", "$ref", "pattern",
        "minimum", "maximum", "dependencies",
    ]
    /// Keywords that describe and never constrain.
    static let annotations: Set<String> = ["$schema", "title", "description", "definitions"]

    /// Problems with `value`, each as "path: what is wrong"; empty when it is valid.
    func errors(_ value: JSONValue) -> [String] { validate(value, root, at: "$") }

    func isValid(_ value: JSONValue) -> Bool { errors(value).isEmpty }

    /// Every keyword anywhere in the schema that this validator does not implement.
    func unsupportedKeywords() -> [String] {
        var found: [String] = []
        func walk(_ schema: JSONValue, _ path: String) {
            guard case .object(let fields) = schema else { return }
            for key in fields.keys.sorted() where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
                found.append("\(path)/\(key)")
            }
            for key in ["properties", "patternProperties", "definitions"] {
                for (name, sub) in fields[key]?.objectValue ?? [:] { walk(sub, "\(path)/\(key)/\(name)") }
            }
            for key in ["additionalProperties", "propertyNames", "items", "not", "if", "then", "else"] {
                if let sub = fields[key] { walk(sub, "\(path)/\(key)") }
            }
            for key in ["oneOf", "anyOf"] {
                for (i, sub) in (fields[key]?.arrayValue ?? []).enumerated() { walk(sub, "\(path)/\(key)/\(i)") }
            }
        }
        walk(root, "#")
        return found
    }

    private func resolve(_ reference: String) -> JSONValue? {
        let prefix = "#/definitions/"
        guard reference.hasPrefix(prefix) else { return nil }
        return root["definitions"].objectValue?[String(reference.dropFirst(prefix.count))]
    }

    private func validate(_ value: JSONValue, _ schema: JSONValue, at path: String) -> [String] {
        if case .bool(let allowed) = schema { return allowed ? [] : ["\(path): not allowed here"] }
        guard case .object(let s) = schema else { return ["\(path): schema is not an object"] }
        var out: [String] = []
        if let reference = s["$ref"]?.stringValue {
            guard let target = resolve(reference) else { return ["\(path): unresolvable $ref \(reference)"] }
            out += validate(value, target, at: path)
        }
        if let type = s["type"] {
            let types = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue].compactMap { $0 }
            if !types.contains(where: { Self.has(value, type: $0) }) {
                return out + ["\(path): expected \(types.joined(separator: " or ")), found \(value.typeName)"]
            }
        }
        if let options = s["enum"]?.arrayValue, !options.contains(value) {
            out.append(
                "\(path): \(value.compactJSON) is not one of \(options.map(\.compactJSON).joined(separator: ", "))")
        }
        if let constant = s["const"], constant != value { out.append("\(path): must be \(constant.compactJSON)") }
        if case .string(let text) = value, let pattern = s["pattern"]?.stringValue, !Self.matches(text, pattern) {
            out.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if case .number(let n) = value {
            if let min = s["minimum"]?.numberValue, n < min { out.append("\(path): \(n) is below \(min)") }
            if let max = s["maximum"]?.numberValue, n > max { out.append("\(path): \(n) is above \(max)") }
        }
        if case .array(let items) = value {
            if let min = s["minItems"]?.numberValue, Double(items.count) < min {
                out.append("\(path): fewer than \(Int(min)) items")
            }
            if let itemSchema = s["items"] {
                for (i, item) in items.enumerated() { out += validate(item, itemSchema, at: "\(path)[\(i)]") }
            }
        }
        if case .object(let fields) = value { out += validateObject(fields, s, at: path) }
        if let branches = s["oneOf"]?.arrayValue {
            let passing = branches.filter { validate(value, $0, at: path).isEmpty }.count
            if passing != 1 { out.append("\(path): matches \(passing) of the oneOf alternatives, not exactly one") }
        }
        if let branches = s["anyOf"]?.arrayValue, !branches.contains(where: { validate(value, $0, at: path).isEmpty }) {
            out.append("\(path): matches none of the anyOf alternatives")
        }
        if let forbidden = s["not"], validate(value, forbidden, at: path).isEmpty {
            out.append("\(path): matches a forbidden shape \(forbidden.compactJSON)")
        }
        if let condition = s["if"] {
            let branch = validate(value, condition, at: path).isEmpty ? s["then"] : s["else"]
            if let branch { out += validate(value, branch, at: path) }
        }
        return out
    }

    private func validateObject(_ fields: [String: JSONValue], _ s: [String: JSONValue], at path: String) -> [String] {
        var out: [String] = []
        for key in s["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where fields[key] == nil {
            out.append("\(path): missing required key `\(key)`")
        }
        if let min = s["minProperties"]?.numberValue, Double(fields.count) < min {
            out.append("\(path): fewer than \(Int(min)) keys")
        }
        for (key, needed) in s["dependencies"]?.objectValue ?? [:] where fields[key] != nil {
            for other in needed.arrayValue?.compactMap(\.stringValue) ?? [] where fields[other] == nil {
                out.append("\(path): `\(key)` needs `\(other)`")
            }
        }
        let properties = s["properties"]?.objectValue ?? [:]
        let patterns = s["patternProperties"]?.objectValue ?? [:]
        for key in fields.keys.sorted() {
            let at = "\(path).\(key)"
            if let nameSchema = s["propertyNames"] { out += validate(.string(key), nameSchema, at: "\(at) (name)") }
            var matched = false
            if let propertySchema = properties[key] {
                matched = true; out += validate(fields[key]!, propertySchema, at: at)
            }
            for (pattern, patternSchema) in patterns where Self.matches(key, pattern) {
                matched = true
                out += validate(fields[key]!, patternSchema, at: at)
            }
            if !matched, let additional = s["additionalProperties"] {
                if case .bool(false) = additional {
                    out.append("\(at): unknown key `\(key)`")
                } else {
                    out += validate(fields[key]!, additional, at: at)
                }
            }
        }
        return out
    }

    static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            true
        case ("integer", .number(let n)): n == n.rounded()
        default: false
        }
    }

    /// ECMA-262 `pattern` semantics for the simple expressions our schemas use: a search, not a whole match.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
