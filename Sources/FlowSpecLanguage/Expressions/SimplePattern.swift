/// The anchored patterns flows actually write for inputs and `matches()` — `^[0-9]{6}$`, `^\S+$`,
/// `^(staff|customer)$`, `^([0-9]{6}|[A-Za-z0-9]{8})$` — matched without ICU, on printable ASCII text.
///
/// Why: ICU's matcher, through NSRegularExpression, was the largest single cost of checking an input in a run.
/// What it accepts is small enough to match in one pass and exactly as ICU would: the whole pattern between `^` and
/// `$`, either one sequence or one group of alternatives; each sequence made of literal characters, classes (`[…]`
/// of ASCII characters and ranges, `\d \w \s \D \W \S`, `.`), each optionally repeated (`{n}`, `{n,m}`, `{n,}`,
/// `?`, `*`, `+`), with at most one repetition of variable length per sequence, so the text's length decides it
/// and nothing backtracks. Anything else — and any text with a character outside `0x20…0x7E`, where ICU's rules
/// for line ends and Unicode classes apply — goes to ICU as before. `SimplePatternTests` holds the two equal.
struct SimplePattern: Sendable {
    /// 128 flags, one per ASCII code.
    struct ByteSet: Sendable, Equatable {
        var low: UInt64 = 0, high: UInt64 = 0
        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? low >> byte & 1 == 1 : byte < 128 && high >> (byte - 64) & 1 == 1
        }
        mutating func insert(_ byte: UInt8) {
            if byte < 64 { low |= 1 << byte } else if byte < 128 { high |= 1 << (byte - 64) }
        }
        mutating func insert(_ range: ClosedRange<UInt8>) { for byte in range { insert(byte) } }
        var inverted: ByteSet { ByteSet(low: ~low, high: ~high) }
    }

    struct Item: Sendable {
        var set: ByteSet
        var min: Int
        var max: Int // Int.max: unbounded
    }

    /// The alternatives; the text must be one of them from end to end.
    let alternatives: [[Item]]

    /// Nil when the pattern is not one this can match exactly as ICU does.
    init?(_ pattern: String) {
        var bytes = Array(pattern.utf8)[...]
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "^"), bytes.last == UInt8(ascii: "$") else { return nil }
        bytes = bytes.dropFirst().dropLast()
        // `\$` at the end is a literal dollar, not the anchor: count the backslashes before it.
        guard bytes.reversed().prefix(while: { $0 == UInt8(ascii: "\\") }).count % 2 == 0 else { return nil }
        var sequences: [ArraySlice<UInt8>]
        if bytes.first == UInt8(ascii: "("), bytes.last == UInt8(ascii: ")") {
            var inner = bytes.dropFirst().dropLast()
            if inner.starts(with: "?:".utf8) { inner = inner.dropFirst(2) }
            sequences = inner.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false)
        } else {
            sequences = [bytes]
        }
        var alternatives: [[Item]] = []
        for sequence in sequences {
            guard let items = Self.items(sequence) else { return nil }
            alternatives.append(items)
        }
        self.alternatives = alternatives
    }

    /// Whether all of `text` matches, or nil when the text is not printable ASCII and ICU must decide.
    func wholeMatch(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            return alternatives.contains { Self.matches($0, bytes) }
        }
    }

    private static func matches(_ items: [Item], _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let fixed = items.reduce(0) { $0 + $1.min }
        guard text.count >= fixed else { return false }
        var extra = text.count - fixed
        var offset = 0
        for item in items {
            var count = item.min
            if item.max > item.min {
                count += Swift.min(extra, item.max - item.min)
                extra -= count - item.min
            }
            for _ in 0..<count {
                guard item.set.contains(text[offset]) else { return false }
                offset += 1
            }
        }
        return extra == 0
    }

    private static func items(_ sequence: ArraySlice<UInt8>) -> [Item]? {
        var items: [Item] = []
        var rest = sequence
        while let first = rest.first {
            rest = rest.dropFirst()
            var set = ByteSet()
            switch first {
            case UInt8(ascii: "\\"):
                guard let escaped = rest.first, let class_ = escapeClass(escaped) else { return nil }
                rest = rest.dropFirst()
                set = class_
            case UInt8(ascii: "["):
                guard let (parsed, after) = bracket(rest) else { return nil }
                set = parsed
                rest = after
            case UInt8(ascii: "."):
                set = printable
            default:
                guard first >= 0x20, first < 0x7F, !metacharacters.contains(first) else { return nil }
                set.insert(first)
            }
            var item = Item(set: set, min: 1, max: 1)
            if let (min, max, after) = quantifier(rest) {
                item.min = min
                item.max = max
                rest = after
                // `+?`, `*+` and the like: lazy and possessive forms, left to ICU.
                if let next = rest.first, [UInt8(ascii: "?"), UInt8(ascii: "+")].contains(next) { return nil }
            }
            items.append(item)
        }
        guard !items.isEmpty, items.filter({ $0.max != $0.min }).count <= 1 else { return nil }
        return items
    }

    private static let metacharacters = Set("^$()[]{}|?*+.\\".utf8)
    private static let printable: ByteSet = {
        var s = ByteSet(); s.insert(0x20...0x7E); return s
    }()
    private static let digits: ByteSet = {
        var s = ByteSet(); s.insert(UInt8(ascii: "0")...UInt8(ascii: "9")); return s
    }()
    private static let word: ByteSet = {
        var s = digits
        s.insert(UInt8(ascii: "a")...UInt8(ascii: "z"))
        s.insert(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        s.insert(UInt8(ascii: "_"))
        return s
    }()
    /// Within printable ASCII, the only white space is the space itself.
    private static let space: ByteSet = {
        var s = ByteSet(); s.insert(UInt8(ascii: " ")); return s
    }()

    /// `\d \w \s \D \W \S`, and an escaped ASCII punctuation character standing for itself.
    private static func escapeClass(_ byte: UInt8) -> ByteSet? {
        switch byte {
        case UInt8(ascii: "d"): return digits
        case UInt8(ascii: "w"): return word
        case UInt8(ascii: "s"): return space
        case UInt8(ascii: "D"): return intersect(digits.inverted, printable)
        case UInt8(ascii: "W"): return intersect(word.inverted, printable)
        case UInt8(ascii: "S"): return intersect(space.inverted, printable)
        default:
            // Letters and digits after `\` mean other things to ICU (`\b`, `\p`, `\1`…).
            guard byte >= 0x21, byte < 0x7F, !word.contains(byte) else { return nil }
            var s = ByteSet()
            s.insert(byte)
            return s
        }
    }

    private static func intersect(_ a: ByteSet, _ b: ByteSet) -> ByteSet {
        ByteSet(low: a.low & b.low, high: a.high & b.high)
    }

    /// `[…]` after its `[`: ASCII letters, digits and plain punctuation, ranges between them, `\d`-style classes, a
    /// leading `^`. ICU's set syntax (`[[:alpha:]]`, `&&`, `--`, nested sets) is left to ICU.
    private static func bracket(_ text: ArraySlice<UInt8>) -> (ByteSet, ArraySlice<UInt8>)? {
        var rest = text
        var negated = false
        if rest.first == UInt8(ascii: "^") { negated = true; rest = rest.dropFirst() }
        var set = ByteSet()
        var members = 0
        while let byte = rest.first {
            rest = rest.dropFirst()
            if byte == UInt8(ascii: "]"), members > 0 {
                return (negated ? intersect(set.inverted, printable) : set, rest)
            }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = rest.first, let class_ = escapeClass(escaped) else { return nil }
                rest = rest.dropFirst()
                set = ByteSet(low: set.low | class_.low, high: set.high | class_.high)
                members += 1
                continue
            }
            guard byte >= 0x20, byte < 0x7F, !"[]&-^".utf8.contains(byte) else { return nil }
            if rest.first == UInt8(ascii: "-"), rest.count >= 2, let upper = rest.dropFirst().first,
                upper != UInt8(ascii: "]")
            {
                guard word.contains(upper), upper != UInt8(ascii: "_"), word.contains(byte), byte <= upper else {
                    return nil
                }
                set.insert(byte...upper)
                rest = rest.dropFirst(2)
            } else {
                set.insert(byte)
            }
            members += 1
        }
        return nil
    }

    /// `{n}`, `{n,m}`, `{n,}`, `?`, `*`, `+`, with the rest after it.
    private static func quantifier(_ text: ArraySlice<UInt8>) -> (Int, Int, ArraySlice<UInt8>)? {
        switch text.first {
        case UInt8(ascii: "?"): return (0, 1, text.dropFirst())
        case UInt8(ascii: "*"): return (0, .max, text.dropFirst())
        case UInt8(ascii: "+"): return (1, .max, text.dropFirst())
        case UInt8(ascii: "{"):
            guard let close = text.firstIndex(of: UInt8(ascii: "}")) else { return nil }
            let body = text[text.index(after: text.startIndex)..<close]
            let parts = body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            func number(_ digits: ArraySlice<UInt8>) -> Int? {
                guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ (48...57).contains($0) }) else {
                    return nil
                }
                return Int(String(decoding: digits, as: UTF8.self))
            }
            guard let min = number(parts[0]) else { return nil }
            let after = text[text.index(after: close)...]
            switch parts.count {
            case 1: return (min, min, after)
            case 2 where parts[1].isEmpty: return (min, .max, after)
            case 2: guard let max = number(parts[1]), max >= min else { return nil }; return (min, max, after)
            default: return nil
            }
        default:
            return nil
        }
    }
}
