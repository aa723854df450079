import ArgumentParser

/// PLACEHOLDER — being written; replaced wholesale.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "schema", abstract: "(not yet available)", shouldDisplay: false)
    func run() async throws { throw ExitCode(2) }
}
