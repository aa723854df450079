/// Runs an input's command (`--input-command`, `inputs: { code: { command: … } }`) and returns the value it printed.
/// A seam so the rules around commands — which inputs they see, when they run again — are tested without
/// starting shells; `ShellCommandRunner` is the real one.
package protocol CommandRunner: Sendable {
    /// `environment` is added to the inherited one.
    func run(_ command: String, environment: [String: String], timeoutSeconds: Double) async throws(InputError)
        -> String
}

/// `/bin/sh -c COMMAND` (see `ShellCommand`).
package struct ShellCommandRunner: CommandRunner {
    package init() {}
    package func run(_ command: String, environment: [String: String], timeoutSeconds: Double) async throws(InputError)
        -> String
    {
        try await ShellCommand(command, environment: environment, timeoutSeconds: timeoutSeconds).run()
    }
}
