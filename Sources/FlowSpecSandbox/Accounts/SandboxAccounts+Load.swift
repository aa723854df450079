import Foundation
import Yams

extension SandboxAccounts {
    /// Reads an accounts file, YAML or JSON (JSON is read as YAML, which keeps positions in errors).
    /// Every section is optional: a missing one keeps its built-in default; a present one replaces it whole.
    /// Unknown keys, wrong types and dangling references are `SandboxAccountsError`s naming the file, the
    /// line and column where known, the key, and what was expected.
    package static func load(path: String) throws -> SandboxAccounts {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw SandboxAccountsError(
                file: path, key: "", problem: "cannot read the accounts file (\(error.localizedDescription))")
        }
        return try parse(text, file: path)
    }

    /// `load(path:)` for text already in memory; `file` names it in errors. Public for the accounts fuzz target.
    package static func parse(_ text: String, file: String) throws(SandboxAccountsError) -> SandboxAccounts {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .default, .default, .utf8) // named: Yams computes `.default` from the environment on every call
        } catch let error as YamlError {
            throw AccountsSyntax.error(error, file: file)
        } catch {
            throw SandboxAccountsError(file: file, key: "", problem: "not valid YAML or JSON: \(error)")
        }
        guard let root else { return .defaults }
        let cursor = YAMLCursor(node: root, path: "", file: file)
        if cursor.isNull { return .defaults }
        let accounts = try AccountsReader(file: file).read(cursor)
        try AccountsValidator(file: file, root: root).validate(accounts)
        return accounts
    }
}

enum AccountsSyntax {
    static func error(_ error: YamlError, file: String) -> SandboxAccountsError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return SandboxAccountsError(
                file: file, line: mark.line, column: mark.column, key: "",
                problem: "not valid YAML or JSON: \(problem)")
        default:
            return SandboxAccountsError(file: file, key: "", problem: "not valid YAML or JSON: \(error)")
        }
    }
}
