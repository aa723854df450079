/// One `--report KIND[=FILE]` from the command line: which format, and where it goes (stdout when no file).
public struct ReportRequest: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case junit, json, tap, html, coverage
    }

    public var kind: Kind
    /// nil writes to standard output (only TAP, JSON and coverage make sense there).
    public var path: String?

    public init(kind: Kind, path: String?) {
        self.kind = kind
        self.path = path
    }

    /// Parses `junit=out/junit.xml`, `tap`, `json=-` (stdout).
    public static func parse(_ text: String) -> Result<ReportRequest, ReportRequestError> {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let kind = Kind(rawValue: parts[0].lowercased()) else {
            let kinds = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(.init("unknown report `\(parts[0])`; use one of \(kinds), e.g. --report junit=junit.xml"))
        }
        var path = parts.count > 1 ? parts[1] : nil
        if path == "-" { path = nil }
        if parts.count > 1, parts[1].isEmpty {
            return .failure(.init("no file after `=`; write --report \(kind.rawValue)=FILE, or --report \(kind.rawValue) for standard output"))
        }
        if path == nil, kind == .junit || kind == .html {
            return .failure(.init("\(kind.rawValue) needs a file: --report \(kind.rawValue)=\(kind == .junit ? "junit.xml" : "report.html")"))
        }
        return .success(ReportRequest(kind: kind, path: path))
    }
}

public struct ReportRequestError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
