import ArgumentParser

/// PLACEHOLDER — being written; replaced wholesale.
struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "graph", abstract: "(not yet available)", shouldDisplay: false)
    func run() async throws { throw ExitCode(2) }
}
