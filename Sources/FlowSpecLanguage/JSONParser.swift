/// Why some bytes are not JSON (RFC 8259), and where: `byte 12: a number cannot start with 0 followed by a digit`.
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset in bytes from the start of the document.
    package var offset: Int
    package var message: String

    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    package var description: String { "byte \(offset): \(message)" }
}

/// A strict RFC 8259 parser. Foundation's JSONSerialization cannot tell `true` from `1` on Linux (both come back as
/// NSNumbers that cast to Bool and to Int), and expressions must; Foundation also accepts trailing commas
/// (docs/decisions.md, Reading responses, has the measurement against JSONTestSuite).
///
/// It is iterative: nesting lives in an explicit stack, never the call stack, so no input can overflow it, and
/// nesting deeper than `maxDepth` is an error rather than a crash (JSONValue's own recursive operations —
/// printing, comparing, freeing — stay shallow too).
struct JSONParser {
    /// Containers nested deeper than this are refused (Foundation's limit too).
    static let maxDepth = 512

    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// An array or object being filled: what was read so far, and for an object the key awaiting its value.
    /// It is filled where it lies on the stack (`open[top].items.append`): an enum's payload taken out, appended to
    /// and put back was a second reference to the same storage, so every append copied the whole container: time
    /// quadratic in the container's size.
    private struct Open {
        var items: [JSONValue] = []
        var fields: [String: JSONValue] = [:]
        /// The key awaiting its value in an object; nil in a list.
        var key: String?

        static let list = Open()
        static func object(awaiting key: String) -> Open { Open(key: key) }
    }

    /// Values read between two looks at the run's deadline: often enough to stop within milliseconds, rarely
    /// enough to cost nothing.
    static let valuesPerDeadlineCheck = 4096

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        var open: [Open] = []
        var untilDeadlineCheck = Self.valuesPerDeadlineCheck
        skipWhitespace()
        readingValues: while true {
            untilDeadlineCheck -= 1
            if untilDeadlineCheck == 0 {
                untilDeadlineCheck = Self.valuesPerDeadlineCheck
                if RunDeadline.isReached {
                    throw fail("stopped: the run's time limit was reached while reading this JSON")
                }
            }
            // Read one value, or open a container and go on reading its first member.
            var value: JSONValue
            guard index < bytes.count else {
                throw fail(
                    open.isEmpty ? "no JSON value (the text is empty)" : "the text ends inside \(describe(open))")
            }
            switch bytes[index] {
            case UInt8(ascii: "["):
                if try enteredEmpty(closedBy: UInt8(ascii: "]"), depth: open.count + 1) {
                    value = .array([])
                } else {
                    open.append(.list)
                    continue readingValues
                }
            case UInt8(ascii: "{"):
                if try enteredEmpty(closedBy: UInt8(ascii: "}"), depth: open.count + 1) {
                    value = .object([:])
                } else {
                    open.append(.object(awaiting: try readKey()))
                    continue readingValues
                }
            case UInt8(ascii: "\""): value = .string(try parseString())
            case UInt8(ascii: "t"): value = try literal("true", .bool(true))
            case UInt8(ascii: "f"): value = try literal("false", .bool(false))
            case UInt8(ascii: "n"): value = try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try parseNumber()
            default: throw fail("expected a value, found \(shown(bytes[index]))")
            }

            // Put the value into the container it belongs to; a closing bracket completes that container, which is
            // in turn a value for the one around it.
            while !open.isEmpty {
                skipWhitespace()
                let top = open.count - 1
                if let key = open[top].key {
                    open[top].fields[key] = value
                    if peek(UInt8(ascii: ",")) {
                        index += 1
                        skipWhitespace()
                        open[top].key = try readKey()
                        continue readingValues
                    }
                    try close(UInt8(ascii: "}"), "an object")
                    value = .object(open.removeLast().fields)
                } else {
                    open[top].items.append(value)
                    if peek(UInt8(ascii: ",")) {
                        index += 1
                        skipWhitespace()
                        continue readingValues
                    }
                    try close(UInt8(ascii: "]"), "a list")
                    value = .array(open.removeLast().items)
                }
            }
            skipWhitespace()
            guard index == bytes.count else { throw fail("unexpected \(shown(bytes[index])) after the JSON value") }
            return value
        }
    }

    private func fail(_ message: String) -> JSONSyntaxError { JSONSyntaxError(offset: index, message: message) }

    private func describe(_ open: [Open]) -> String {
        if open.last?.key != nil { return "an object" }
        return "a list"
    }

    private func shown(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte)
            ? "`\(Character(Unicode.Scalar(byte)))`" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        guard depth <= Self.maxDepth else { throw fail("lists and objects nested deeper than \(Self.maxDepth) levels") }
    }

    /// Steps past the `[` or `{` that opens a container nested `depth` deep, and the whitespace after it; true when
    /// the container is empty (`closing` follows at once, and is stepped past too).
    private mutating func enteredEmpty(closedBy closing: UInt8, depth: Int) throws(JSONSyntaxError) -> Bool {
        try checkDepth(depth)
        index += 1
        skipWhitespace()
        guard peek(closing) else { return false }
        index += 1
        return true
    }

    /// Steps past `bracket`, which closes `container` (`an object`, `a list`) where no `,` came after its last member;
    /// objects and lists end alike, so they fail alike.
    private mutating func close(_ bracket: UInt8, _ container: String) throws(JSONSyntaxError) {
        guard peek(bracket) else {
            throw fail(
                index < bytes.count
                    ? "expected `,` or `\(Character(Unicode.Scalar(bracket)))` in \(container), found \(shown(bytes[index]))"
                    : "the text ends inside \(container)")
        }
        index += 1
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// `"key" :` with the whitespace after the colon.
    private mutating func readKey() throws(JSONSyntaxError) -> String {
        guard peek(UInt8(ascii: "\"")) else {
            throw fail(
                index < bytes.count
                    ? "expected a quoted key, found \(shown(bytes[index]))" : "the text ends inside an object")
        }
        let key = try parseString()
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { throw fail("expected `:` after an object key") }
        index += 1
        skipWhitespace()
        return key
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        let matches =
            index + count <= bytes.count && word.withUTF8Buffer { bytes[index..<index + count].elementsEqual($0) }
        guard matches else { throw fail("expected `\(word)`") }
        index += count
        return value
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let opening = index
        index += 1
        var decoded: [UInt8] = []
        var escaped = false
        /// Every byte read, OR-ed: below 0x80 means ASCII, valid as it is.
        var seen: UInt8 = 0
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            seen |= byte
            if byte == UInt8(ascii: "\"") {
                index += 1
                // Most strings are ASCII without escapes: made straight from the document's bytes, no copy to check.
                // (`String(validating:)` is generic and unspecialised here: a metadata lookup per string.)
                if !escaped, seen < 0x80 { return String(decoding: bytes[runStart..<index - 1], as: UTF8.self) }
                decoded.append(contentsOf: bytes[runStart..<index - 1])
                if decoded.allSatisfy({ $0 < 0x80 }) { return String(decoding: decoded, as: UTF8.self) }
                guard let text = String(validating: decoded, as: UTF8.self) else {
                    throw JSONSyntaxError(offset: opening, message: "a string is not valid UTF-8")
                }
                return text
            }
            if byte < 0x20 {
                throw fail(
                    "a control character (byte 0x\(String(byte, radix: 16, uppercase: true))) must be escaped in a string"
                )
            }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            decoded.append(contentsOf: bytes[runStart..<index])
            escaped = true
            index += 1
            guard index < bytes.count else { break }
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
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else {
                        throw fail("`\\u\(String(code, radix: 16, uppercase: true))` is half a surrogate pair")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail("`\\u\(String(code, radix: 16, uppercase: true))` is half a surrogate pair")
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw fail("`\\u\(String(code, radix: 16, uppercase: true))` is half a surrogate pair")
                }
                decoded.append(contentsOf: UTF8.encode(scalar)!)
            default:
                index -= 1
                throw fail("`\\\(Character(Unicode.Scalar(escape)))` is not a JSON escape")
            }
            runStart = index
        }
        throw JSONSyntaxError(offset: opening, message: "a string is not closed")
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw fail("`\\u` needs four hex digits") }
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("`\\u` needs four hex digits")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` — no `+1`, `01`, `.5`, `2.`, `1e`, `Infinity`.
    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        func isDigit(_ i: Int) -> Bool { i < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) }
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard isDigit(index) else { throw fail("a number needs a digit here") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw fail("a number cannot start with 0 followed by a digit") }
        } else {
            while isDigit(index) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard isDigit(index) else { throw fail("a number needs a digit after `.`") }
            while isDigit(index) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard isDigit(index) else { throw fail("a number needs a digit in its exponent") }
            while isDigit(index) { index += 1 }
        }
        // The grammar is ASCII, so the text is valid UTF-8; Double's own parser does the rounding.
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(
                offset: start,
                message: "the number \(text.count > 40 ? String(text.prefix(40)) + "…" : text) is too large")
        }
        return .number(value)
    }
}
