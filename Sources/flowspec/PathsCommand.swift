import ArgumentParser

/// PLACEHOLDER — being written; replaced wholesale.
struct PathsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "paths", abstract: "(not yet available)", shouldDisplay: false)
    func run() async throws { throw ExitCode(2) }
}
