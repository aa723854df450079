import FlowSpecLanguage
import FlowSpecLoading
import Foundation

/// Finds and loads everything a command needs: the flows folder, flows, sessions and scenarios, checked.
package struct Suite: Sendable {
    package var specs: SpecSet
    /// The suite's `probe:` files, for the probe module to decode against `specs`.
    package var probeDocuments: [(file: String, root: YAMLNode)]
    package var scenarios: [Scenario]
    package var diagnostics: Diagnostics
    package var fileCount: Int
}

package enum SuiteLoader {
    /// `--flows DIR`, else the nearest `flows/` folder at or above the first path, else `./flows`.
    /// Paths are handled as text (`PathText`) and asked about with `stat`: Foundation's URLs were most of listing a
    /// suite's files in a cold `check`.
    package static func flowsFolder(for paths: [String], explicit: String?) -> String? {
        if let explicit { return explicit }
        let cwd = SourceFiles.workingDirectory()
        for path in paths {
            var folder = PathText.standardized(path, workingDirectory: cwd)
            if SourceFiles.isFolder(folder) == false { folder = parent(of: folder) }
            while true {
                if folder.split(separator: "/").last == "flows" { return relativeToWorkingDirectory(folder, cwd) }
                let candidate = folder == "/" ? "/flows" : folder + "/flows"
                if SourceFiles.isFolder(candidate) == true { return relativeToWorkingDirectory(candidate, cwd) }
                if folder == "/" { break }
                folder = parent(of: folder)
            }
        }
        let local = cwd == "/" ? "/flows" : cwd + "/flows"
        return SourceFiles.isFolder(local) != nil ? local : nil
    }

    /// The folder holding a standardized absolute path; `/` for `/` itself.
    private static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// `flows` rather than `/home/qa/project/flows`: locations in messages and reports stay short and the same on
    /// every machine (CI checkouts live in different places).
    static func relativeToWorkingDirectory(_ path: String, _ cwd: String) -> String {
        let base = PathText.standardized(cwd, workingDirectory: "/")
        guard path.hasPrefix(base + "/") else { return path }
        return String(path.dropFirst(base.count + 1))
    }

    package static func load(paths: [String], flowsFolder explicit: String?) -> Suite {
        var found = Diagnostics()
        var files = ProgramLoader.yamlFiles(in: paths, &found)
        let cwd = SourceFiles.workingDirectory()
        var seen = Set(files.map { PathText.standardized($0, workingDirectory: cwd) })
        if let folder = flowsFolder(for: paths, explicit: explicit) {
            var ignored = Diagnostics()
            if explicit != nil, SourceFiles.isFolder(folder) == nil {
                found.error(SourceLocation(file: folder, line: 1, column: 1), "no such flows folder")
            }
            // `flowspec check flows` names the flows folder itself: its files are all found already.
            let standardizedFolder = PathText.standardized(folder, workingDirectory: cwd)
            let alreadyListed = paths.contains {
                PathText.standardized($0, workingDirectory: cwd) == standardizedFolder
            }
            for file in alreadyListed ? [] : ProgramLoader.yamlFiles(in: [folder], &ignored)
            where seen.insert(PathText.standardized(file, workingDirectory: cwd)).inserted {
                files.append(file)
            }
        }
        let loaded = ProgramLoader.load(files: files, diagnostics: found)
        let specs = loaded.program
        var diagnostics = specs.diagnostics
        var scenarios: [Scenario] = []
        var names: [String: String] = [:]
        // Decoded side by side, as the flows were; joined in file order, so messages and names come out as one by one.
        let documents = loaded.scenarioDocuments
        let decoded = SideBySide.map(count: documents.count) { [specs] index -> (Scenario?, Diagnostics) in
            var d = Diagnostics()
            let scenario = ScenarioDecoder.decode(documents[index].root, file: documents[index].file, specs: specs, &d)
            return (scenario, d)
        }
        for (index, (scenario, d)) in decoded.enumerated() {
            diagnostics.append(contentsOf: d)
            guard let scenario else { continue }
            let file = documents[index].file
            if let other = names[scenario.name] {
                diagnostics.error(
                    scenario.location, "another scenario in \(other) has the same name \"\(scenario.name)\"",
                    hint: "names identify scenarios in reports; make them unique")
            }
            names[scenario.name] = file
            scenarios.append(scenario)
        }
        return Suite(
            specs: specs, probeDocuments: loaded.probeDocuments, scenarios: scenarios, diagnostics: diagnostics,
            fileCount: files.count)
    }
}
