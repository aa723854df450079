/// One finding about a spec file, printed as `path:line:col: error: message`.
package struct Diagnostic: Sendable, Hashable, CustomStringConvertible, Error {
    package enum Severity: String, Sendable { case error, warning }

    package var severity: Severity
    package var location: SourceLocation
    package var message: String
    package var hint: String?

    package init(_ severity: Severity, _ location: SourceLocation, _ message: String, hint: String? = nil) {
        self.severity = severity
        self.location = location
        self.message = message.abbreviated(to: 400)
        self.hint = hint
    }

    package static func error(_ location: SourceLocation, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, location, message, hint: hint)
    }

    package static func warning(_ location: SourceLocation, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, location, message, hint: hint)
    }

    package var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let hint { text += "\n    hint: \(hint)" }
        return text
    }
}

/// Collects diagnostics while loading; loaders keep going after an error so one run reports them all.
package struct Diagnostics: Sendable {
    package private(set) var items: [Diagnostic] = []

    package init() {}

    package init(_ items: [Diagnostic]) { self.items = items }

    package var hasErrors: Bool { items.contains { $0.severity == .error } }
    package var errors: [Diagnostic] { items.filter { $0.severity == .error } }

    package mutating func add(_ diagnostic: Diagnostic) { items.append(diagnostic) }
    package mutating func append(contentsOf other: Diagnostics) { items.append(contentsOf: other.items) }
    package mutating func error(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        add(.error(location, message, hint: hint))
    }
    package mutating func warning(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        add(.warning(location, message, hint: hint))
    }

    /// Sorted by file, line, column so output is stable whatever order checks ran in.
    package var sorted: [Diagnostic] {
        items.sorted {
            ($0.location.file, $0.location.line, $0.location.column, $0.message)
                < ($1.location.file, $1.location.line, $1.location.column, $1.message)
        }
    }
}
