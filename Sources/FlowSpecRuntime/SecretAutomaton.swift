/// Finds every registered secret (and every encoded form of one) in a text in one pass over its bytes, whatever the
/// number of secrets: an Aho–Corasick automaton. One search per secret made masking quadratic when a backend handed
/// out thousands of credentials (each response's masking scanned the whole text once per secret).
///
/// Bytes are compared through `fold`, which reads the URL-safe base64 letters `-` and `_` as the standard `+` and
/// `/`: one pattern then finds a secret's base64 in both alphabets. The cost is that a secret `a_b` also masks `a/b`.
struct SecretAutomaton: Sendable {
    /// The byte the automaton compares for each text byte.
    static let fold: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "-"): UInt8(ascii: "+")
        case UInt8(ascii: "_"): UInt8(ascii: "/")
        default: UInt8(byte)
        }
    }

    // Nodes are indexes; 0 is the root. Children are a first-child / next-sibling list (most nodes of random
    // secrets have one child), except the root's, which are a table because every text byte starts there.
    private var rootChild = [Int32](repeating: 0, count: 256)
    private var label: [UInt8] = [0]
    private var firstChild: [Int32] = [-1]
    private var nextSibling: [Int32] = [-1]
    private var failure: [Int32] = [0]
    /// The length of the longest pattern that ends at this node (its own, or one that is a suffix of it); 0: none.
    private var longest: [Int32] = [0]

    /// The total length of the patterns, to decide when automatons are merged.
    private(set) var patternBytes = 0

    var isEmpty: Bool { label.count == 1 }

    init(_ patterns: [[UInt8]]) {
        for pattern in patterns where !pattern.isEmpty { insert(pattern) }
        linkFailures()
    }

    private func child(_ node: Int32, _ byte: UInt8) -> Int32? {
        if node == 0 { let c = rootChild[Int(byte)]; return c == 0 ? nil : c }
        var c = firstChild[Int(node)]
        while c >= 0 {
            if label[Int(c)] == byte { return c }
            c = nextSibling[Int(c)]
        }
        return nil
    }

    private mutating func insert(_ pattern: [UInt8]) {
        patternBytes += pattern.count
        var node: Int32 = 0
        for raw in pattern {
            let byte = Self.fold[Int(raw)]
            if let next = child(node, byte) { node = next; continue }
            let new = Int32(label.count)
            label.append(byte)
            firstChild.append(-1)
            failure.append(0)
            longest.append(0)
            if node == 0 {
                nextSibling.append(-1)
                rootChild[Int(byte)] = new
            } else {
                nextSibling.append(firstChild[Int(node)])
                firstChild[Int(node)] = new
            }
            node = new
        }
        longest[Int(node)] = Int32(pattern.count)
    }

    /// Breadth first, so a node's failure (always shallower) is complete before the node's own.
    private mutating func linkFailures() {
        var queue: [Int32] = rootChild.filter { $0 != 0 }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            var c = firstChild[Int(node)]
            while c >= 0 {
                let byte = label[Int(c)]
                var f = failure[Int(node)]
                var target: Int32 = 0
                while true {
                    if let next = child(f, byte) { target = next; break }
                    if f == 0 { break }
                    f = failure[Int(f)]
                }
                failure[Int(c)] = target
                if longest[Int(c)] == 0 { longest[Int(c)] = longest[Int(target)] }
                queue.append(c)
                c = nextSibling[Int(c)]
            }
        }
    }

    /// Calls `found` with the range of the longest pattern ending at each position where one ends, in order of
    /// their ends. A shorter pattern ending at the same place lies inside it, so nothing masked is lost.
    func forEachMatch(in text: UnsafeBufferPointer<UInt8>, _ found: (Range<Int>) -> Void) {
        guard !isEmpty else { return }
        label.withUnsafeBufferPointer { label in
        firstChild.withUnsafeBufferPointer { firstChild in
        nextSibling.withUnsafeBufferPointer { nextSibling in
        failure.withUnsafeBufferPointer { failure in
        longest.withUnsafeBufferPointer { longest in
        rootChild.withUnsafeBufferPointer { rootChild in
        Self.fold.withUnsafeBufferPointer { fold in
            var node: Int32 = 0
            for index in 0..<text.count {
                let byte = fold[Int(text[index])]
                while true {
                    if node == 0 { node = rootChild[Int(byte)]; break }
                    var c = firstChild[Int(node)]
                    while c >= 0, label[Int(c)] != byte { c = nextSibling[Int(c)] }
                    if c >= 0 { node = c; break }
                    node = failure[Int(node)]
                }
                let length = Int(longest[Int(node)])
                if length > 0 { found((index + 1 - length)..<(index + 1)) }
            }
        }}}}}}}
    }
}
