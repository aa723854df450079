import Foundation

/// One `--report NAME[=FILE]` from the command line: which format, and where it goes (stdout when no file).
package struct ReportRequest: Sendable {
    package var format: any ReportFormat
    /// nil writes to standard output (only formats without `requiresFile`).
    package var path: String?

    package init(format: any ReportFormat, path: String?) {
        self.format = format
        self.path = path
    }

    /// Parses `junit=out/junit.xml`, `tap`, `json=-` (stdout), choosing among `formats` (a probe run has no coverage).
    package static func parse(_ text: String, formats: [any ReportFormat] = ReportFormats.all) -> Result<
        ReportRequest, ReportRequestError
    > {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let format = formats.first(where: { $0.name == parts[0].lowercased() }) else {
            let names = formats.map(\.name).joined(separator: ", ")
            let known =
                ReportFormats.named(parts[0]) != nil
                ? "`\(parts[0])` is not available here" : "unknown report `\(parts[0])`"
            return .failure(.init("\(known); use one of \(names), e.g. --report junit=junit.xml"))
        }
        var path = parts.count > 1 ? parts[1] : nil
        if path == "-" { path = nil }
        if parts.count > 1, parts[1].isEmpty {
            return .failure(
                .init(
                    "no file after `=`; write --report \(format.name)=FILE, or --report \(format.name) for standard output"
                ))
        }
        if path == nil, let example = format.requiresFile {
            return .failure(.init("\(format.name) needs a file: --report \(format.name)=\(example)"))
        }
        return .success(ReportRequest(format: format, path: path))
    }

    /// The problem with a set of requests taken together, if any: two on standard output, or two on one file.
    package static func conflict(in requests: [ReportRequest]) -> String? {
        if requests.filter({ $0.path == nil }).count > 1 {
            return
                "only one --report can go to standard output; give the others a file (e.g. --report json=report.json)"
        }
        var seen = Set<String>()
        for path in requests.compactMap(\.path) where !seen.insert(path).inserted {
            return "two reports would write \(path); give each its own file"
        }
        return nil
    }

    /// A report whose folder does not exist, found before any work: a typo in a folder name should not cost a
    /// 20-minute run.
    package static func missingFolder(in requests: [ReportRequest]) -> String? {
        for path in requests.compactMap(\.path) {
            let folder = (path as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            if !folder.isEmpty,
                !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
            {
                return "--report: the folder \(folder) does not exist (for \(path)); create it first"
            }
        }
        return nil
    }

    /// What the requests need the run to record, together.
    package static func needs(of requests: [ReportRequest]) -> ReportNeeds {
        requests.reduce(into: ReportNeeds()) { $0.formUnion($1.format.needs) }
    }
}

extension ReportRequest: Equatable {
    package static func == (a: ReportRequest, b: ReportRequest) -> Bool {
        a.format.name == b.format.name && a.path == b.path
    }
}

package struct ReportRequestError: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
