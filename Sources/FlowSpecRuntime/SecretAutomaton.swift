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

    // Nodes are numbered breadth first, 0 the root, so the children of a node are the contiguous numbers
    // `firstChild[node] ..< firstChild[node + 1]`, whose labels lie side by side in memory (a linked list of
    // siblings sent every step to a random place in memory, which made a large automaton very slow to search). The
    // root's children are also in a table: every text byte starts there.
    private var rootChild = [Int32](repeating: 0, count: 256)
    private var label: [UInt8] = [0]
    private var firstChild: [Int32] = [1, 1]
    private var failure: [Int32] = [0]
    /// The length of the longest pattern that ends at this node (its own, or one that is a suffix of it); 0: none.
    private var longest: [Int32] = [0]

    /// The total length of the patterns, to decide when automatons are merged.
    private(set) var patternBytes = 0

    var isEmpty: Bool { label.count == 1 }

    init(_ patterns: [[UInt8]]) {
        // First a trie with linked siblings, in local arrays (a method of `self` called while one of its arrays is
        // written keeps a second reference to it, and the write then copies the whole array).
        var trieLabel: [UInt8] = [0], trieFirst: [Int32] = [-1], trieNext: [Int32] = [-1], trieLongest: [Int32] = [0]
        var trieRoot = [Int32](repeating: -1, count: 256)
        for pattern in patterns where !pattern.isEmpty {
            patternBytes += pattern.count
            var node: Int32 = 0
            for raw in pattern {
                let byte = Self.fold[Int(raw)]
                var next: Int32
                if node == 0 {
                    next = trieRoot[Int(byte)]
                } else {
                    next = trieFirst[Int(node)]
                    while next >= 0, trieLabel[Int(next)] != byte { next = trieNext[Int(next)] }
                }
                if next < 0 {
                    next = Int32(trieLabel.count)
                    trieLabel.append(byte)
                    trieFirst.append(-1)
                    trieLongest.append(0)
                    if node == 0 {
                        trieNext.append(-1)
                        trieRoot[Int(byte)] = next
                    } else {
                        trieNext.append(trieFirst[Int(node)])
                        trieFirst[Int(node)] = next
                    }
                }
                node = next
            }
            trieLongest[Int(node)] = Int32(pattern.count)
        }
        guard trieLabel.count > 1 else { return }

        // Renumbered breadth first: a node's children get the next free numbers when the node is reached.
        let count = trieLabel.count
        var order: [Int32] = [0]
        order.reserveCapacity(count)
        var label = [UInt8](repeating: 0, count: count), longest = [Int32](repeating: 0, count: count)
        var firstChild = [Int32](repeating: Int32(count), count: count + 1)
        var rootChild = [Int32](repeating: 0, count: 256)
        var head = 0
        while head < order.count {
            let old = Int(order[head])
            firstChild[head] = Int32(order.count)
            label[head] = trieLabel[old]
            longest[head] = trieLongest[old]
            if old == 0 {
                for byte in 0..<256 where trieRoot[byte] >= 0 {
                    rootChild[byte] = Int32(order.count)
                    order.append(trieRoot[byte])
                }
            } else {
                var c = trieFirst[old]
                while c >= 0 { order.append(c); c = trieNext[Int(c)] }
            }
            head += 1
        }
        trieLabel = []; trieFirst = []; trieNext = []; trieLongest = []

        // Failures breadth first, so a node's failure (always shallower) is complete before the node's own.
        var failure = [Int32](repeating: 0, count: count)
        for node in 1..<count {
            for c in Int(firstChild[node])..<Int(firstChild[node + 1]) {
                let byte = label[c]
                var f = failure[node]
                var target: Int32 = 0
                while true {
                    if f == 0 { target = rootChild[Int(byte)]; break }
                    if let g = Self.child(of: Int(f), byte, label, firstChild) { target = g; break }
                    f = failure[Int(f)]
                }
                failure[c] = target
                if longest[c] == 0 { longest[c] = longest[Int(target)] }
            }
        }
        self.rootChild = rootChild
        self.label = label
        self.firstChild = firstChild
        self.failure = failure
        self.longest = longest
    }

    private static func child(of node: Int, _ byte: UInt8, _ label: [UInt8], _ firstChild: [Int32]) -> Int32? {
        var c = Int(firstChild[node])
        let end = Int(firstChild[node + 1])
        while c < end {
            if label[c] == byte { return Int32(c) }
            c += 1
        }
        return nil
    }

    /// Calls `found` with the range of the longest pattern ending at each position where one ends, in order of
    /// their ends. A shorter pattern ending at the same place lies inside it, so nothing masked is lost.
    func forEachMatch(in text: UnsafeBufferPointer<UInt8>, _ found: (Range<Int>) -> Void) {
        guard !isEmpty else { return }
        label.withUnsafeBufferPointer { label in
            firstChild.withUnsafeBufferPointer { firstChild in
                failure.withUnsafeBufferPointer { failure in
                    longest.withUnsafeBufferPointer { longest in
                        rootChild.withUnsafeBufferPointer { rootChild in
                            Self.fold.withUnsafeBufferPointer { fold in
                                var node = 0
                                for index in 0..<text.count {
                                    let byte = fold[Int(text[index])]
                                    while true {
                                        if node == 0 { node = Int(rootChild[Int(byte)]); break }
                                        var c = Int(firstChild[node])
                                        let end = Int(firstChild[node + 1])
                                        while c < end, label[c] != byte { c += 1 }
                                        if c < end { node = c; break }
                                        node = Int(failure[node])
                                    }
                                    let length = Int(longest[node])
                                    if length > 0 { found((index + 1 - length)..<(index + 1)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
