/// One finding about a spec file, printed as `path:line:col: error: message`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible, Error {
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    public var location: SourceLocation
    public var message: String
    public var hint: String?

    public init(_ severity: Severity, _ location: SourceLocation, _ message: String, hint: String? = nil) {
        self.severity = severity
        self.location = location
        self.message = message.abbreviated(to: 400)
        self.hint = hint
    }

    public static func error(_ location: SourceLocation, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, location, message, hint: hint)
    }

    public static func warning(_ location: SourceLocation, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, location, message, hint: hint)
    }

    public var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let hint { text += "\n    hint: \(hint)" }
        return text
    }
}

/// Collects diagnostics while loading; loaders keep going after an error so one run reports them all.
public struct Diagnostics: Sendable {
    public private(set) var items: [Diagnostic] = []

    public init() {}

    public init(_ items: [Diagnostic]) { self.items = items }

    public var hasErrors: Bool { items.contains { $0.severity == .error } }
    public var errors: [Diagnostic] { items.filter { $0.severity == .error } }

    public mutating func add(_ diagnostic: Diagnostic) { items.append(diagnostic) }
    public mutating func append(contentsOf other: Diagnostics) { items.append(contentsOf: other.items) }
    public mutating func error(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        add(.error(location, message, hint: hint))
    }
    public mutating func warning(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        add(.warning(location, message, hint: hint))
    }

    /// Sorted by file, line, column so output is stable whatever order checks ran in.
    public var sorted: [Diagnostic] {
        items.sorted {
            ($0.location.file, $0.location.line, $0.location.column, $0.message)
                < ($1.location.file, $1.location.line, $1.location.column, $1.message)
        }
    }
}
