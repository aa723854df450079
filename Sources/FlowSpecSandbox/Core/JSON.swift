import Foundation

// Over 300 lines on purpose: the sandbox's strict JSON parser and writer, kept whole and apart from the language's
// as an independent reference held to JSONTestSuite (docs/decisions.md, The sandbox); the parser's steps share one
// cursor.

/// A JSON value. The sandbox builds every response body from these, so field names and types are visible
/// at the call site (the system descriptions mix camelCase and snake_case on purpose, and `is_active` is a 0/1 number).
enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    subscript(key: String) -> JSON? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value) where value == value.rounded(): return Int(exactly: value)
        default: return nil
        }
    }

    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// `nil` becomes JSON `null`, so optional model fields stay present in the body (the system descriptions show them).
    static func optional(_ value: String?) -> JSON {
        value.map(JSON.string) ?? .null
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(nilLiteral: ()) { self = .null }
    init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// MARK: - Parsing

extension JSON {
    /// Strict RFC 8259 (JSONTestSuite's `n_` cases are all refused; Foundation's JSONDecoder accepts trailing
    /// commas), or nil. Integers that fit `Int` are `.int`, other numbers `.double`.
    ///
    /// Written apart from FlowSpecLanguage's JSONParser on purpose: the sandbox is the reference the client is
    /// checked against and must not share its code (docs/decisions.md, The sandbox).
    static func parse(_ bytes: [UInt8]) -> JSON? {
        var parser = StrictJSONParser(bytes: bytes)
        return parser.parseDocument()
    }
}

/// Iterative, so no input can overflow the stack; containers nest at most `maxDepth` deep.
private struct StrictJSONParser {
    static let maxDepth = 512

    let bytes: [UInt8]
    var index = 0

    private enum Open {
        case array([JSON])
        case object([String: JSON], key: String)
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() -> JSON? {
        var open: [Open] = []
        skipWhitespace()
        readingValues: while true {
            var value: JSON
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "["):
                guard open.count < Self.maxDepth else { return nil }
                index += 1
                skipWhitespace()
                if peek(UInt8(ascii: "]")) {
                    index += 1
                    value = .array([])
                } else {
                    open.append(.array([]))
                    continue readingValues
                }
            case UInt8(ascii: "{"):
                guard open.count < Self.maxDepth else { return nil }
                index += 1
                skipWhitespace()
                if peek(UInt8(ascii: "}")) {
                    index += 1
                    value = .object([:])
                } else {
                    guard let key = readKey() else { return nil }
                    open.append(.object([:], key: key))
                    continue readingValues
                }
            case UInt8(ascii: "\""):
                guard let text = parseString() else { return nil }
                value = .string(text)
            case UInt8(ascii: "t"): guard literal("true") else { return nil }; value = .bool(true)
            case UInt8(ascii: "f"): guard literal("false") else { return nil }; value = .bool(false)
            case UInt8(ascii: "n"): guard literal("null") else { return nil }; value = .null
            default:
                guard let number = parseNumber() else { return nil }
                value = number
            }
            while let container = open.popLast() {
                skipWhitespace()
                switch container {
                case .array(var items):
                    items.append(value)
                    if peek(UInt8(ascii: ",")) {
                        index += 1
                        skipWhitespace()
                        open.append(.array(items))
                        continue readingValues
                    }
                    guard peek(UInt8(ascii: "]")) else { return nil }
                    index += 1
                    value = .array(items)
                case .object(var fields, let key):
                    fields[key] = value
                    if peek(UInt8(ascii: ",")) {
                        index += 1
                        skipWhitespace()
                        guard let next = readKey() else { return nil }
                        open.append(.object(fields, key: next))
                        continue readingValues
                    }
                    guard peek(UInt8(ascii: "}")) else { return nil }
                    index += 1
                    value = .object(fields)
                }
            }
            skipWhitespace()
            // Not a ternary: JSON is ExpressibleByNilLiteral, so `cond ? value : nil` would be JSON.null.
            guard index == bytes.count else { return nil }
            return value
        }
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private func isDigit(_ i: Int) -> Bool {
        i < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i])
    }

    private mutating func skipWhitespace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
        {
            index += 1
        }
    }

    private mutating func readKey() -> String? {
        guard peek(UInt8(ascii: "\"")), let key = parseString() else { return nil }
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { return nil }
        index += 1
        skipWhitespace()
        return key
    }

    private mutating func literal(_ word: String) -> Bool {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, bytes[index..<index + utf8.count].elementsEqual(utf8) else {
            return false
        }
        index += utf8.count
        return true
    }

    private mutating func parseString() -> String? {
        index += 1
        var decoded: [UInt8] = []
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                decoded.append(contentsOf: bytes[runStart..<index])
                index += 1
                return String(validating: decoded, as: UTF8.self)
            }
            if byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            decoded.append(contentsOf: bytes[runStart..<index])
            index += 1
            guard index < bytes.count else { return nil }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4() else { return nil }
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { return nil }
                    index += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code), let encoded = UTF8.encode(scalar) else { return nil }
                decoded.append(contentsOf: encoded)
            default: return nil
            }
            runStart = index
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else {
                return nil
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func parseNumber() -> JSON? {
        let start = index
        var integral = true
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard isDigit(index) else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return nil }
        } else {
            while isDigit(index) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            integral = false
            index += 1
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            integral = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { return nil }
        return .double(value)
    }
}

// MARK: - Serialising

extension JSON {
    /// Compact JSON with sorted keys: deterministic bodies make test failures readable.
    var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value):
            out += value.isFinite ? String(value) : "null"
        case .string(let value): JSON.writeString(value, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSON.writeString(key, to: &out)
                out += ":"
                fields[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(format: "%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
