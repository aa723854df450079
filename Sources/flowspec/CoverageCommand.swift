import ArgumentParser

/// PLACEHOLDER — being written; replaced wholesale.
struct CoverageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "coverage", abstract: "(not yet available)", shouldDisplay: false)
    func run() async throws { throw ExitCode(2) }
}
