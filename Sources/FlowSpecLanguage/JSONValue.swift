import Foundation

/// The values expressions compute with: exactly JSON's.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package var isNull: Bool { if case .null = self { return true } else { return false } }

    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    package var numberValue: Double? { if case .number(let n) = self { return n } else { return nil } }
    package var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "list"
        case .object: "object"
        }
    }

    package subscript(key: String) -> JSONValue {
        if case .object(let o) = self { return o[key] ?? .null }
        return .null
    }

    /// Text for interpolation into templates: strings unquoted, everything else as compact JSON.
    package var interpolated: String {
        switch self {
        case .string(let s): s
        case .null: ""
        default: compactJSON
        }
    }

    /// Compact JSON with sorted keys, so output and comparisons are stable.
    package var compactJSON: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONValue.format(n)
        case .string(let s): JSONValue.writeQuoted(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeQuoted(key, into: &out)
                out += ":"
                fields[key]!.write(into: &out)
            }
            out += "}"
        }
    }

    /// `value[index]` as expressions read it: an array position (whole numbers, negative counts from the end) or
    /// an object key (`lowercasingKey` for header objects, whose keys are stored lowercased); anything else is null.
    package func indexed(by index: JSONValue, lowercasingKey: Bool = false) -> JSONValue {
        switch (self, index) {
        case (.array(let items), .number(let n)):
            let i = Int(exactly: n.rounded(.towardZero)) ?? Int.max
            guard Double(i) == n else { return .null }
            let position = i < 0 ? items.count + i : i
            return items.indices.contains(position) ? items[position] : .null
        case (.object(let fields), .string(let key)):
            return fields[lowercasingKey ? key.lowercased() : key] ?? .null
        default:
            return .null
        }
    }

    package static func format(_ n: Double) -> String {
        if n.isFinite, n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    static func writeQuoted(_ s: String, into out: inout String) {
        // Most strings need no escape: appended whole, not scalar by scalar.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        writeQuoted(s, into: &out) { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : nil }
    }

    /// A double-quoted string in JSON's escapes, which YAML's double-quoted style reads the same: `"`, `\`,
    /// newline, return and tab escaped, and any other scalar as `escape` says (nil: as it is).
    @inline(__always)
    static func writeQuoted(_ s: String, into out: inout String, escape: (Unicode.Scalar) -> String?) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// Parses JSON bytes; nil when they are not JSON (RFC 8259: no trailing commas, no `01`, `+1` or `.5`).
    package static func parse(_ data: Data) -> JSONValue? { try? parsing(data) }

    package static func parse(_ text: String) -> JSONValue? {
        var parser = JSONParser(bytes: Array(text.utf8))
        return try? parser.parseDocument()
    }

    /// Parses JSON bytes, saying why and where when they are not JSON.
    package static func parsing(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: [UInt8](data))
        return try parser.parseDocument()
    }

    /// Copied from the text's UTF-8 storage at once: `Data(_: String.UTF8View)` went through a dynamic cast.
    package var data: Data {
        var text = compactJSON
        return text.withUTF8 { Data($0) }
    }

    /// Human-friendly, indented JSON with sorted keys.
    package var prettyJSON: String {
        guard case .object = self, true else { return compactJSON }
        var out = ""
        writePretty(into: &out, indent: 0)
        return out
    }

    private func writePretty(into out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                item.writePretty(into: &out, indent: indent + 1)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += closePad + "]"
        case .object(let fields) where !fields.isEmpty:
            out += "{\n"
            let keys = fields.keys.sorted()
            for (i, key) in keys.enumerated() {
                out += pad
                JSONValue.writeQuoted(key, into: &out)
                out += ": "
                fields[key]!.writePretty(into: &out, indent: indent + 1)
                out += i == keys.count - 1 ? "\n" : ",\n"
            }
            out += closePad + "}"
        default:
            out += compactJSON
        }
    }
}
