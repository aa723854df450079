import Foundation
import FlowSpecLanguage

/// Finds and loads everything a command needs: the flows folder, flows, sessions and scenarios, checked.
public struct Suite: Sendable {
    public var specs: SpecSet
    public var scenarios: [Scenario]
    public var diagnostics: Diagnostics
    public var fileCount: Int
}

public enum SuiteLoader {
    /// `--flows DIR`, else the nearest `flows/` folder at or above the first path, else `./flows`.
    public static func flowsFolder(for paths: [String], explicit: String?) -> String? {
        if let explicit { return explicit }
        let fm = FileManager.default
        for path in paths {
            var url = URL(fileURLWithPath: path).standardizedFileURL
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue { url.deleteLastPathComponent() }
            while true {
                if url.lastPathComponent == "flows" { return relativeToWorkingDirectory(url.path) }
                let candidate = url.appendingPathComponent("flows")
                if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue { return relativeToWorkingDirectory(candidate.path) }
                let parent = url.deletingLastPathComponent()
                if parent.path == url.path { break }
                url = parent
            }
        }
        let local = URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("flows").path
        return fm.fileExists(atPath: local) ? local : nil
    }

    /// `flows` rather than `/home/qa/project/flows`: locations in messages and reports stay short and the same on
    /// every machine (CI checkouts live in different places).
    static func relativeToWorkingDirectory(_ path: String) -> String {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        guard path.hasPrefix(cwd + "/") else { return path }
        return String(path.dropFirst(cwd.count + 1))
    }

    public static func load(paths: [String], flowsFolder explicit: String?) -> Suite {
        var specs = SpecSet()
        var files = SpecSet.yamlFiles(in: paths, &specs.diagnostics)
        let cwd = FileManager.default.currentDirectoryPath
        var seen = Set(files.map { PathText.standardized($0, workingDirectory: cwd) })
        if let folder = flowsFolder(for: paths, explicit: explicit) {
            var ignored = Diagnostics()
            if explicit != nil, !FileManager.default.fileExists(atPath: folder) {
                specs.diagnostics.error(SourceLocation(file: folder, line: 1, column: 1), "no such flows folder")
            }
            // `flowspec check flows` names the flows folder itself: its files are all found already.
            let standardizedFolder = PathText.standardized(folder, workingDirectory: cwd)
            let alreadyListed = paths.contains { PathText.standardized($0, workingDirectory: cwd) == standardizedFolder }
            for file in alreadyListed ? [] : SpecSet.yamlFiles(in: [folder], &ignored)
            where seen.insert(PathText.standardized(file, workingDirectory: cwd)).inserted {
                files.append(file)
            }
        }
        specs.load(files: files)
        specs.check()
        var diagnostics = specs.diagnostics
        var scenarios: [Scenario] = []
        var names: [String: String] = [:]
        // Decoded side by side, as the flows were; joined in file order, so messages and names come out as one by one.
        let documents = specs.scenarioDocuments
        let decoded = SideBySide.map(count: documents.count) { [specs] index -> (Scenario?, Diagnostics) in
            var d = Diagnostics()
            let scenario = ScenarioDecoder.decode(documents[index].root, file: documents[index].file, specs: specs, &d)
            return (scenario, d)
        }
        // The YAML trees are not needed once decoded; a long run should not carry them.
        specs.scenarioDocuments = []
        for (index, (scenario, d)) in decoded.enumerated() {
            diagnostics.append(contentsOf: d)
            guard let scenario else { continue }
            let file = documents[index].file
            if let other = names[scenario.name] {
                diagnostics.error(scenario.location, "another scenario in \(other) has the same name \"\(scenario.name)\"", hint: "names identify scenarios in reports; make them unique")
            }
            names[scenario.name] = file
            scenarios.append(scenario)
        }
        return Suite(specs: specs, scenarios: scenarios, diagnostics: diagnostics, fileCount: files.count)
    }
}
