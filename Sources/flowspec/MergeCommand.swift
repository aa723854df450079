import ArgumentParser

/// PLACEHOLDER — being written; replaced wholesale.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "merge", abstract: "(not yet available)", shouldDisplay: false)
    func run() async throws { throw ExitCode(2) }
}
