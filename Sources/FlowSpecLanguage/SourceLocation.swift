/// A position in a source file, 1-based, as editors and compilers print it.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }

    /// The location `offset` characters further along the same line.
    public func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + offset)
    }
}

extension YAMLNode {
    /// Where the scalar's text itself starts: quoted scalars begin one column after their quote.
    public var textLocation: SourceLocation {
        isQuoted ? location.advanced(by: 1) : location
    }
}
