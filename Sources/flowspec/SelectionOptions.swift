import ArgumentParser
import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

/// Which scenarios run, in which order, how many times: `--filter`, `--tag`, `--shard`, `--shuffle`/`--seed`,
/// `--repeat`, `--list`. The logic lives in `ScenarioSelection`; this is the command-line face of it.
/// docs/ci.md explains how they combine.
struct SelectionOptions: ParsableArguments {
    @Option(
        help: "Run only scenarios whose name matches this regular expression.",
        transform: { text in
            guard let regex = RegexCache.compile(text) else { throw ValidationError("not a valid regular expression") }
            return Written(text: text, value: regex)
        })
    var filter: Written<CompiledRegex>?

    @Option(
        name: .customLong("tag"),
        help: ArgumentHelp(
            "Run only scenarios whose tags match this expression: `smoke`, `smoke and not slow`, `(a or b) and not c` (repeatable; all must match).",
            discussion: "Every scenario also carries the tag `live` or `scripted`.", valueName: "expr"),
        transform: { text in
            // ArgumentParser already quotes the value and names the option.
            do { return Written(text: text, value: try TagExpression.parse(text)) } catch {
                throw ValidationError("\(error)")
            }
        })
    var tags: [Written<TagExpression>] = []

    @Option(
        help: ArgumentHelp(
            "Run only shard K of N: scenarios sorted by file and name, every Nth from the Kth (e.g. 2/4).",
            valueName: "K/N"),
        transform: { text in
            do { return Written(text: text, value: try Shard.parse(text)) } catch {
                let message = "\(error)", echo = "--shard \(text): "
                throw ValidationError(message.hasPrefix(echo) ? String(message.dropFirst(echo.count)) : message)
            }
        })
    var shard: Written<Shard>?

    @Flag(
        help:
            "Run the selected scenarios in a random order; the seed is printed so the order can be replayed with --seed."
    )
    var shuffle = false

    @Option(
        help: ArgumentHelp(
            "The seed for --shuffle (0 to 18446744073709551615): the same seed gives the same order.", valueName: "S"))
    var seed: UInt64?

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp(
            "Run each selected scenario N times, each run reported on its own (at most \(ScenarioSelection.grouped(ScenarioSelection.maxRepeatedRuns)) runs in all).",
            valueName: "N"))
    var repetitions: Int = 1

    @Flag(help: "Print the scenarios that would run, with their tags, and run nothing.")
    var list = false

    func validate() throws {
        if seed != nil && !shuffle {
            throw ValidationError("--seed only orders a shuffled run: add --shuffle, or drop --seed")
        }
        if repetitions < 1 { throw ValidationError("--repeat must be at least 1, got \(repetitions)") }
        if repetitions > ScenarioSelection.maxRepeatedRuns {
            let most = ScenarioSelection.grouped(ScenarioSelection.maxRepeatedRuns)
            throw ValidationError(
                "--repeat is at most \(most) (the runs of one invocation, all scenarios together), got \(repetitions)")
        }
    }

    /// Set by `--list`: print what would run, run nothing.
    var listOnly: Bool { list }

    /// A short description of the selection, for "no scenarios found …".
    var describe: String {
        var parts: [String] = []
        if let filter { parts.append(" matching /\(filter.text)/") }
        if !tags.isEmpty { parts.append(" with tags " + tags.map { "`\($0.text)`" }.joined(separator: " and ")) }
        if let shard { parts.append(" in shard \(shard.text)") }
        return parts.joined()
    }

    /// The scenarios to run, in run order, each with its repetition number (nil unless repeating).
    /// Warns on stderr about `--tag` names no scenario has, and prints the seed of a shuffled run. A repeated
    /// selection of more runs than one invocation plays is a usage error (exit 2), found before any run is planned.
    func plan(_ scenarios: [Scenario]) throws -> [(scenario: Scenario, repetition: Int?)] {
        var selection = ScenarioSelection(
            namePattern: filter?.value, tagExpressions: tags.map(\.value),
            shard: shard?.value, shuffleSeed: nil, repetitions: repetitions)
        for (tag, closest) in selection.unknownTags(in: scenarios) {
            Console.error(
                "warning: --tag: no scenario has the tag `\(tag)`" + (closest.map { "; did you mean `\($0)`?" } ?? ""))
        }
        let selected = selection.selected(scenarios)
        if let tooMany = selection.tooManyRuns(selecting: selected.count) {
            Console.error("error: \(tooMany)")
            throw ExitCode(Exit.invalid)
        }
        selection.shuffleSeed = shuffleSeed()
        return selection.runs(of: selected).map { ($0.scenario, $0.repetition) }
    }

    /// Prints the planned scenarios for `--list`: `file  name  [tags]`, the file column padded so names and
    /// tags line up, then `N scenarios`. One run per line, so `grep` and `wc -l` see what `run` would do.
    func list(_ plan: [(scenario: Scenario, repetition: Int?)]) {
        let width = plan.map(\.scenario.file.count).max() ?? 0
        for (scenario, repetition) in plan {
            let file = scenario.file.padding(toLength: width, withPad: " ", startingAt: 0)
            let run = repetition.map { " (run \($0) of \(repetitions))" } ?? ""
            print("\(file)  \(scenario.name)\(run)  [\(scenario.displayTags.joined(separator: ", "))]")
        }
        let distinct = Set(plan.map { "\($0.scenario.file)\u{0}\($0.scenario.name)" }).count
        let count = "\(plan.count) scenario\(plan.count == 1 ? "" : "s")"
        print(repetitions > 1 ? "\(count) (\(distinct) × \(repetitions) runs)" : count)
    }

    /// The given seed, or a fresh one printed to stderr so a failing order can be replayed.
    private func shuffleSeed() -> UInt64? {
        guard shuffle else { return nil }
        let seed = seed ?? UInt64.random(in: 0...UInt64.max)
        Console.error("shuffled with --seed \(seed)")
        return seed
    }
}

/// An option's value as parsed once, with the text it was written as (for messages that quote the command line).
struct Written<Value> {
    let text: String
    let value: Value
}
