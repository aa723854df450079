import FlowSpecLanguage

extension YAMLLoader {
    /// Reads a YAML file and parses it: strict UTF-8 (a leading byte-order mark dropped), every problem a located
    /// diagnostic.
    package static func load(file: String) -> Result<YAMLNode, Diagnostic> {
        let bytes: [UInt8]
        do {
            bytes = try SourceFiles.bytes(at: file)
        } catch {
            return .failure(.error(SourceLocation(file: file, line: 1, column: 1), "cannot read file: \(error.reason)"))
        }
        // A leading byte-order mark is dropped, as Foundation's UTF-8 decoding did before.
        let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        guard let text = String(validating: bytes[(hasMark ? 3 : 0)...], as: UTF8.self) else {
            return .failure(.error(SourceLocation(file: file, line: 1, column: 1), "file is not UTF-8 text"))
        }
        return load(text: text, file: file)
    }
}
