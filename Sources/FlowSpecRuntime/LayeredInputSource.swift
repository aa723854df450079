import FlowSpecLanguage

/// Asks a person at a terminal. Implemented by the CLI (it owns the TTY); nil when there is none.
package protocol InputPrompter: Sendable {
    func ask(_ input: InputDecl, flow: String) async throws(InputError) -> String?
}

/// Where `exec` and live scenarios get inputs, in order: given values (`--input`, scenario `inputs:`), then a
/// command (`--input-command`, `inputs: { code: { command: … } }`), then a prompt. Commands see the
/// non-secret inputs handed out so far as environment variables, so `${email}` in a command is the email
/// the flow is using.
package actor LayeredInputSource: InputSource {
    private let given: ListInputSource
    private var commands: [String: String]
    private let prompter: (any InputPrompter)?
    private let commandTimeout: Double
    private let runner: any CommandRunner
    /// Every value handed out, by input name: what `current` repeats and what commands see.
    private var handedOut: [String: String] = [:]
    private var secretNames: Set<String> = []
    /// Where a value fetched by a command is registered as a secret: a command fetches codes, whatever the input
    /// it answers is declared as.
    private let redactor: Redactor?

    package init(
        values: [String: [String]], commands: [String: String] = [:], prompter: (any InputPrompter)? = nil,
        commandTimeout: Double = 30,
        runner: any CommandRunner = ShellCommandRunner(), redactor: Redactor? = nil
    ) {
        self.redactor = redactor
        given = ListInputSource(values)
        self.commands = commands
        self.prompter = prompter
        self.commandTimeout = commandTimeout
        self.runner = runner
    }

    /// A scenario step's inputs: values after the ones given so far; commands replace earlier ones.
    package func merge(values: [String: [String]], commands more: [String: String]) async {
        given.merge(values)
        commands.merge(more) { $1 }
        // A step that gives a command for an input wants it run again, not the previous step's answer.
        for name in more.keys { handedOut[name] = nil }
    }

    package func current(_ input: InputDecl, flow: String) async throws(InputError) -> String? {
        if let value = given.next(input, flow: flow) { return record(input, value) }
        if let value = handedOut[input.name] { return value }
        if let value = given.current(input, flow: flow) { return record(input, value) }
        return try await fresh(input, flow: flow)
    }

    package func next(_ input: InputDecl, flow: String) async throws(InputError) -> String? {
        if let value = given.next(input, flow: flow) { return record(input, value) }
        return try await fresh(input, flow: flow)
    }

    /// What a command sees besides flowspec's own environment: the non-secret inputs handed out so far, by name.
    package func commandEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for (name, value) in handedOut where !secretNames.contains(name) { environment[name] = value }
        return environment
    }

    private func fresh(_ input: InputDecl, flow: String) async throws(InputError) -> String? {
        if let command = commands[input.name] {
            let value = try await runner.run(command, environment: commandEnvironment(), timeoutSeconds: commandTimeout)
            if !Redactor.isFlag(.string(value)) { redactor?.register(value) }
            return record(input, value)
        }
        if let prompter, let value = try await prompter.ask(input, flow: flow) { return record(input, value) }
        return nil
    }

    private func record(_ input: InputDecl, _ value: String) -> String {
        if input.secret { secretNames.insert(input.name) }
        handedOut[input.name] = value
        return value
    }
}
