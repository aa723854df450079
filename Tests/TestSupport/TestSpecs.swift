import FlowSpecLanguage

/// Flows and sessions written inline in a test, loaded and checked as `flowspec check` would.
package enum TestSpecs {
    package struct Invalid: Error, CustomStringConvertible { public var description: String }

    /// Loads and checks inline YAML (file name → text); throws the first error so a broken fixture fails loudly.
    package static func load(_ files: [String: String]) throws -> SpecSet {
        let set = SpecSet(sources: files)
        if let first = set.diagnostics.errors.first { throw Invalid(description: first.description) }
        return set
    }
}
