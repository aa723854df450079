import FlowSpecLanguage

enum TestSpecs {
    struct Invalid: Error, CustomStringConvertible { var description: String }

    /// Loads and checks inline YAML; throws the first diagnostic so a broken fixture fails loudly.
    static func load(_ files: [String: String]) throws -> SpecSet {
        let set = SpecSet.fromSources(files)
        if let first = set.diagnostics.errors.first { throw Invalid(description: first.description) }
        return set
    }
}
