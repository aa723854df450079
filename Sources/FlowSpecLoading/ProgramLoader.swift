import FlowSpecLanguage

/// Makes the program from files and folders in one call (with the scenario and probe documents beside it): finds the YAML files, reads, parses and decodes them side
/// by side (YAML parsing and decoding are most of a cold `check`), then hands them to the language in the order
/// given, so names, duplicates and messages come out as if read one by one.
package enum ProgramLoader {
    /// Loads, checks and compiles everything under `paths` (files or folders, recursively).
    package static func load(paths: [String]) -> LoadedFiles {
        var diagnostics = Diagnostics()
        let files = yamlFiles(in: paths, &diagnostics)
        return load(files: files, diagnostics: diagnostics)
    }

    /// Loads, checks and compiles `files`, in that order; `diagnostics` (from finding them) come first.
    package static func load(files: [String], diagnostics: Diagnostics = Diagnostics()) -> LoadedFiles {
        LoadedFiles(documents: SideBySide.map(count: files.count) { read(file: files[$0]) }, diagnostics: diagnostics)
    }

    /// One file, read and decoded without the rest of the program.
    package static func read(file: String) -> SpecSet.Document {
        switch YAMLLoader.load(file: file) {
        case .failure(let diagnostic): SpecSet.Document(file: file, failure: diagnostic)
        case .success(let root): SpecSet.decode(root, file: file)
        }
    }

    /// YAML files under `paths` (files or folders, recursively), each once, sorted within a folder for stable output.
    package static func yamlFiles(in paths: [String], _ d: inout Diagnostics) -> [String] {
        var out: [String] = []
        for path in paths {
            guard let isFolder = SourceFiles.isFolder(path) else {
                d.error(SourceLocation(file: path, line: 1, column: 1), "no such file or folder")
                continue
            }
            guard isFolder else {
                out.append(path)
                continue
            }
            out.append(contentsOf: SourceFiles.yamlFiles(under: path) ?? [])
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }
}
