extension SpecSet {
    /// One file, parsed and decoded without the rest of the program: what the loading layer hands over, file by file.
    package struct Document: Sendable {
        package enum Content: Sendable {
            case flow(Flow), session(SessionDef), scenario(YAMLNode), probe(YAMLNode), nothing
        }
        package var file: String
        package var content: Content
        /// What reading, parsing or decoding this file found.
        package var diagnostics: Diagnostics

        package init(file: String, content: Content, diagnostics: Diagnostics = Diagnostics()) {
            self.file = file
            self.content = content
            self.diagnostics = diagnostics
        }

        /// A file that could not be read or parsed.
        package init(file: String, failure: Diagnostic) {
            self.init(file: file, content: .nothing, diagnostics: Diagnostics([failure]))
        }
    }

    /// Decodes one parsed file by its top-level key: a flow or a session now; a scenario or a probe is kept for
    /// its module to decode.
    package static func decode(_ root: YAMLNode, file: String) -> Document {
        var d = Diagnostics()
        let keys = root.mapping?.compactMap { $0.key.scalar } ?? []
        let content: Document.Content
        if keys.contains("scenario") {
            content = .scenario(root)
        } else if keys.contains("probe") {
            content = .probe(root)
        } else if keys.contains("flow") {
            content = FlowDecoder.decode(root, file: file, &d).map(Document.Content.flow) ?? .nothing
        } else if keys.contains("session") {
            content = SessionDecoder.decode(root, file: file, &d).map(Document.Content.session) ?? .nothing
        } else if guessFlowSpecKey(keys) == nil, let pairs = root.mapping, !pairs.isEmpty,
            pairs.allSatisfy({ $0.value.scalar != nil })
        {
            // A flat map of names to single values beside the flows is a variables file (`vars.example.yaml`): a
            // folder a user checks holds one naturally. Not an error, but said, so a misnamed flow is not lost.
            d.warning(
                root.location,
                "not checked: this looks like a variables file (names to single values), not a flow, session, scenario or probe",
                hint:
                    "give it to `run`, `exec` or `probe` with --vars-file; a FlowSpec file starts with `flow:`, `session:`, `scenario:` or `probe:`"
            )
            content = .nothing
        } else {
            let guess = guessFlowSpecKey(keys)
            d.error(
                root.location,
                "not a FlowSpec file: expected a top-level `flow:`, `session:`, `scenario:` or `probe:` key",
                hint: guess.map { "did you mean `\($0)`?" })
            content = .nothing
        }
        return Document(file: file, content: content, diagnostics: d)
    }

    /// The FlowSpec top-level key that one of `keys` is a misspelling of (`flwo` → `flow`), if any.
    static func guessFlowSpecKey(_ keys: [String]) -> String? {
        keys.lazy.compactMap { Suggestion.closest(to: $0, in: ["flow", "session", "scenario", "probe"]) }.first
    }
}
