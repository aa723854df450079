import Foundation

/// A problem in an accounts file, pointing at the place to fix: `file:line:col: key: problem`.
package struct SandboxAccountsError: Error, Equatable, CustomStringConvertible, LocalizedError {
    package let file: String
    /// 1-based, when the YAML parser knows the position.
    package let line: Int?
    package let column: Int?
    /// Dotted path of the offending key, e.g. `staff[2].company`; empty for the whole file.
    package let key: String
    /// What was expected and what was found.
    package let problem: String

    package init(file: String, line: Int? = nil, column: Int? = nil, key: String, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.problem = problem
    }

    package var description: String {
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return key.isEmpty ? "\(place): \(problem)" : "\(place): `\(key)`: \(problem)"
    }

    package var errorDescription: String? { description }
}
