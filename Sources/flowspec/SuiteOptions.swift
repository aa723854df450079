import ArgumentParser
import Foundation

/// The options of every command that runs a suite (`run`, `coverage`): where flows are, how many at once,
/// which scenarios, how they behave, their variables and how live requests are made.
struct SuiteOptions: ParsableArguments {
    @OptionGroup var flowsFolder: FlowsFolderOption

    // Optional, so `--help` says "number of cores" once instead of also printing this machine's count.
    // Unconditional, so `--jobs -1` is read as the option's value and refused with its range, rather than as an
    // unknown option `-1` that leaves --jobs "missing a value".
    @Option(
        name: .customLong("jobs"), parsing: .unconditional,
        help: "How many scenarios run at once (default: number of cores).")
    var jobsOption: Int?

    var jobs: Int { jobsOption ?? ProcessInfo.processInfo.activeProcessorCount }

    @OptionGroup var selection: SelectionOptions
    @OptionGroup var execution: ExecutionOptions
    @OptionGroup var variables: VariableOptions
    @OptionGroup var http: HTTPClientOptions

    @Flag(
        name: .customLong("no-sandbox"),
        help: "Never start the embedded sandbox; live scenarios without a backend are skipped.")
    var noSandbox = false

    func validate() throws {
        if jobs < 1 {
            throw ValidationError(
                "--jobs must be a whole number, 1 or more (how many scenarios run at once), got \(jobs)")
        }
    }
}
