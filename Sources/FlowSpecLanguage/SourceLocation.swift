/// A position in a source file, 1-based, as editors and compilers print it.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    package var description: String { "\(file):\(line):\(column)" }

    /// The location `offset` characters further along the same line.
    package func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + offset)
    }
}

extension YAMLNode {
    /// Where the scalar's text itself starts: quoted scalars begin one column after their quote.
    package var textLocation: SourceLocation {
        isQuoted ? location.advanced(by: 1) : location
    }
}
