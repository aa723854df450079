/// What a set of files holds: the program (flows and sessions, checked and compiled in the same call) and, beside it,
/// the scenario and probe documents, which their own modules decode against the program. The program does not carry
/// them: a run that has decoded its scenarios lets their YAML trees go with this value.
package struct LoadedFiles: Sendable {
    package let program: SpecSet
    /// Scenario files, in file order, for the scenarios module to decode.
    package let scenarioDocuments: [(file: String, root: YAMLNode)]
    /// Probe declarations (`probe:` files), in file order, for the probe module to decode.
    package let probeDocuments: [(file: String, root: YAMLNode)]

    /// Decoded files in the order given; `diagnostics` are the loading layer's own (a path that does not exist),
    /// reported first. Every document's diagnostics go into the program's, in file order.
    package init(documents: [SpecSet.Document], diagnostics: Diagnostics = Diagnostics()) {
        self.init(
            program: SpecSet(documents: documents, diagnostics: diagnostics),
            scenarioDocuments: documents.compactMap(\.scenarioRoot), probeDocuments: documents.compactMap(\.probeRoot))
    }

    /// In-memory YAML texts by file name (tools that generate flows, and tests), in name order.
    package init(sources: [String: String]) {
        self.init(documents: SpecSet.documents(sources: sources))
    }

    private init(
        program: SpecSet, scenarioDocuments: [(file: String, root: YAMLNode)],
        probeDocuments: [(file: String, root: YAMLNode)]
    ) {
        self.program = program
        self.scenarioDocuments = scenarioDocuments
        self.probeDocuments = probeDocuments
    }

    /// These files and one more parsed document: the program is checked again when it brings a flow or a session.
    package func adding(_ root: YAMLNode, file: String) -> LoadedFiles {
        let document = SpecSet.decode(root, file: file)
        return LoadedFiles(
            program: program.adding(document),
            scenarioDocuments: scenarioDocuments + [document.scenarioRoot].compactMap { $0 },
            probeDocuments: probeDocuments + [document.probeRoot].compactMap { $0 })
    }
}

extension SpecSet.Document {
    var scenarioRoot: (file: String, root: YAMLNode)? {
        if case .scenario(let root) = content { (file, root) } else { nil }
    }

    var probeRoot: (file: String, root: YAMLNode)? {
        if case .probe(let root) = content { (file, root) } else { nil }
    }
}
