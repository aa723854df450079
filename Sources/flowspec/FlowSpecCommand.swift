import ArgumentParser
import FlowSpecReports
import Foundation

/// The exit codes commands throw, from the library's one policy (`ExitStatus`, `ExitPolicy`; docs/cli.md).
enum Exit {
    static let passed = ExitStatus.passed.rawValue
    static let failed = ExitStatus.failed.rawValue
    static let invalid = ExitStatus.invalid.rawValue
    static let infrastructure = ExitStatus.infrastructure.rawValue
}

struct FlowSpecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flowspec",
        abstract: "Describe auth flows as YAML state machines, run them, and check scenarios against a backend.",
        discussion: """
            Exit codes: 0 all passed · 1 a scenario failed · 2 invalid spec or usage · 3 infrastructure error.
            """,
        version: "0.1.0",
        subcommands: [
            CheckCommand.self, RunCommand.self, ExecCommand.self, SandboxCommand.self, CoverageCommand.self,
            PathsCommand.self,
            GraphCommand.self, SchemaCommand.self, MergeCommand.self, ProbeCommand.self,
        ]
    )
}

@main
enum Main {
    static func main() async {
        do {
            var command = try FlowSpecCommand.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = FlowSpecCommand.exitCode(for: error)
            let message = FlowSpecCommand.fullMessage(for: error)
            if code == .success {
                print(message)
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            // Usage mistakes are "invalid spec or usage" (2), not ArgumentParser's 64.
            Foundation.exit(Exit.invalid)
        }
    }
}

enum Console {
    static func error(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
    static func prompt(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

}
