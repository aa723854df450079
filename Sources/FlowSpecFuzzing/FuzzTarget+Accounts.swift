import FlowSpecSandbox
import Foundation

extension FuzzTarget {
    /// The input as a sandbox accounts file (`flowspec sandbox --accounts FILE`): read as YAML or JSON, every
    /// section decoded and cross-checked. Errors are `SandboxAccountsError`s (typed throws) and must print.
    /// The text goes to `SandboxAccounts.parse`, what `load(path:)` does after reading the file: writing a file per
    /// input made the disk's flushes nine tenths of the time. Input that is not UTF-8 is what `load` refuses on
    /// reading.
    static func accounts(_ input: Data) {
        guard let text = FuzzInput.text(input) else { return }
        do {
            _ = try SandboxAccounts.parse(text, file: "fuzz-accounts.yaml")
        } catch {
            // Typed: the compiler proves every error is a SandboxAccountsError; it must still print.
            _ = error.description
        }
    }
}
