/// Node identifiers for diagram languages that accept only plain words as ids (Mermaid): `s_` and the state
/// name with every other character replaced by `_`, numbered on a clash. The prefix keeps clear of keywords
/// (a state called `end` would close a Mermaid subgraph) and of the start marker's id.
struct DiagramIdentifiers {
    private var ids: [String: String] = [:]

    init(_ names: [String]) {
        var taken = Set<String>()
        for name in names {
            let base = "s_" + String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
            var candidate = base
            var suffix = 2
            while !taken.insert(candidate).inserted {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            ids[name] = candidate
        }
    }

    /// The id of a state; a name the graph does not list (a target the checker already reported) still gets one.
    subscript(name: String) -> String {
        ids[name] ?? "x_" + String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }
}
