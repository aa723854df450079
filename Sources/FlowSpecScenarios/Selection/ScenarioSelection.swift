import FlowSpecLanguage

/// Which scenarios a run plays, in which order, how many times. Applied in this order:
/// sort by (file, name) → `--filter` → `--tag` → `--shard` → `--repeat` → `--shuffle`.
/// Sharding comes after filtering so N machines split exactly the selected scenarios, and before
/// repeating and shuffling so a scenario's repetitions stay on one machine and the partition never
/// depends on the seed.
package struct ScenarioSelection: Sendable {
    /// Matched anywhere in the scenario's name (`--filter`).
    package var namePattern: CompiledRegex?
    /// Every expression must match (repeated `--tag` means "and").
    package var tagExpressions: [TagExpression]
    package var shard: Shard?
    /// Shuffle with this seed; nil keeps the sorted order.
    package var shuffleSeed: UInt64?
    /// Each selected scenario runs this many times (`--repeat`), at least 1.
    package var repetitions: Int

    package init(
        namePattern: CompiledRegex? = nil, tagExpressions: [TagExpression] = [], shard: Shard? = nil,
        shuffleSeed: UInt64? = nil, repetitions: Int = 1
    ) {
        self.namePattern = namePattern
        self.tagExpressions = tagExpressions
        self.shard = shard
        self.shuffleSeed = shuffleSeed
        self.repetitions = max(1, repetitions)
    }

    /// One run of one scenario; `repetition` is 1…N under `--repeat N` (N > 1), nil otherwise.
    package struct Run: Sendable {
        package var scenario: Scenario
        package var repetition: Int?
    }

    /// The most runs a repeated selection may plan (`--repeat` times the scenarios selected). Every run is planned
    /// up front and its report kept until the end, so a `--repeat` of a billion asked for all of that memory at once
    /// and the process aborted.
    package static let maxRepeatedRuns = 100_000

    package func plan(_ scenarios: [Scenario]) -> [Run] { runs(of: selected(scenarios)) }

    /// The scenarios the filters and the shard keep, sorted, each once.
    package func selected(_ scenarios: [Scenario]) -> [Scenario] {
        var selected = scenarios.sorted { ($0.file, $0.name, $0.location.line) < ($1.file, $1.name, $1.location.line) }
        if let namePattern { selected = selected.filter { (try? namePattern.firstMatch(in: $0.name)) ?? false } }
        if !tagExpressions.isEmpty {
            selected = selected.filter { scenario in
                let tags = scenario.selectionTags
                return tagExpressions.allSatisfy { $0.matches(tags) }
            }
        }
        if let shard { selected = shard.select(selected) }
        return selected
    }

    /// Why repeating `count` selected scenarios would plan too many runs; nil when it fits (or nothing repeats: a
    /// suite that large is already in memory).
    package func tooManyRuns(selecting count: Int) -> String? {
        guard repetitions > 1, count > Self.maxRepeatedRuns / repetitions else { return nil }
        let runs = count.multipliedReportingOverflow(by: repetitions)
        let total = runs.overflow ? "more than \(Int.max)" : Self.grouped(runs.partialValue)
        return
            "--repeat \(repetitions) × \(Self.grouped(count)) selected scenario\(count == 1 ? "" : "s") makes \(total) runs; "
            + "flowspec plays at most \(Self.grouped(Self.maxRepeatedRuns)) at once: lower --repeat, or select fewer scenarios (--filter, --tag, --shard)"
    }

    /// `100000` as `100,000`.
    package static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        return String(digits.enumerated().flatMap { i, d in (i > 0 && (digits.count - i) % 3 == 0) ? [",", d] : [d] })
    }

    /// The runs of scenarios already selected: each repeated, then the whole list shuffled.
    package func runs(of selected: [Scenario]) -> [Run] {
        var runs = selected.flatMap { scenario in
            repetitions == 1
                ? [Run(scenario: scenario, repetition: nil)]
                : (1...repetitions).map { Run(scenario: scenario, repetition: $0) }
        }
        if let shuffleSeed { runs = runs.shuffled(seed: shuffleSeed) }
        return runs
    }

    /// Tags the expressions mention that no scenario in `scenarios` carries (implicit tags included), each
    /// with the closest tag that does exist: `--tag smok` selects nothing, and that is almost always a typo.
    package func unknownTags(in scenarios: [Scenario]) -> [(tag: String, closest: String?)] {
        let known = Set(scenarios.flatMap(\.selectionTags))
        let mentioned = Set(tagExpressions.flatMap(\.tagNames))
        return mentioned.subtracting(known).sorted().map { ($0, Suggestion.closest(to: $0, in: known.sorted())) }
    }
}

extension Scenario {
    /// `live` for live scenarios, `scripted` for the others: every scenario matches `--tag` as if it also
    /// carried this tag, so `--tag 'not live'` keeps CI off real backends without tagging every file.
    package var implicitTag: String { live ? "live" : "scripted" }

    /// The tags `--tag` expressions are matched against: the file's `tags:` plus the implicit one.
    package var selectionTags: Set<String> { Set(tags).union([implicitTag]) }

    /// The file's tags in their order, then the implicit tag if the file does not list it: what `--list` shows.
    package var displayTags: [String] { tags.contains(implicitTag) ? tags : tags + [implicitTag] }
}
