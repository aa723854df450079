import ArgumentParser
import Foundation
import FlowSpecLanguage
import FlowSpecScenarios

/// Which scenarios run, in which order, how many times: `--filter`, and the CI-scale options.
struct SelectionOptions: ParsableArguments {
    @Option(help: "Run only scenarios whose name matches this regular expression.")
    var filter: String?

    func validate() throws {
        if let filter, RegexCache.compile(filter) == nil { throw ValidationError("--filter is not a valid regular expression: \(filter)") }
    }

    /// Set by `--list`: print what would run, run nothing.
    var listOnly: Bool { false }

    /// A short description of the selection, for "no scenarios found …".
    var describe: String { filter.map { " matching /\($0)/" } ?? "" }

    /// The scenarios to run, in run order, each with its repetition number (nil unless repeating).
    func plan(_ scenarios: [Scenario]) -> [(scenario: Scenario, repetition: Int?)] {
        var selected = scenarios.sorted { ($0.file, $0.name) < ($1.file, $1.name) }
        if let filter, let regex = RegexCache.compile(filter) { selected = selected.filter { regex.firstMatch(in: $0.name) } }
        return selected.map { ($0, nil) }
    }

    /// Prints the planned scenarios for `--list`.
    func list(_ plan: [(scenario: Scenario, repetition: Int?)]) {
        for (scenario, _) in plan { print("\(scenario.file): \(scenario.name)") }
    }
}
