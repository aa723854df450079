import Testing

@testable import FlowSpecScenarios

/// `--repeat` planned every run up front: `--repeat 1000000000` aborted allocating 352 GB. A repeated selection is
/// bounded, and the message says by how much it is over and what to change.
@Suite(.timeLimit(.minutes(5))) struct RepeatLimitTests {
    @Test func repeatingWithinTheLimitIsAllowed() {
        #expect(ScenarioSelection(repetitions: ScenarioSelection.maxRepeatedRuns).tooManyRuns(selecting: 1) == nil)
        #expect(ScenarioSelection(repetitions: 4).tooManyRuns(selecting: 25_000) == nil, "exactly the limit")
        #expect(
            ScenarioSelection(repetitions: 1).tooManyRuns(selecting: 1_000_000) == nil,
            "without --repeat nothing is multiplied")
    }

    @Test func repeatingPastTheLimitNamesTheRunsAndTheLimit() {
        #expect(
            ScenarioSelection(repetitions: 4).tooManyRuns(selecting: 25_001)
                == "--repeat 4 × 25,001 selected scenarios makes 100,004 runs; flowspec plays at most 100,000 at once: "
                + "lower --repeat, or select fewer scenarios (--filter, --tag, --shard)")
        #expect(
            ScenarioSelection(repetitions: 100_001).tooManyRuns(selecting: 1)?.hasPrefix(
                "--repeat 100001 × 1 selected scenario makes 100,001 runs;") == true)
        #expect(
            ScenarioSelection(repetitions: Int.max).tooManyRuns(selecting: 3)?.contains(
                "makes more than 9223372036854775807 runs") == true,
            "no overflow trap")
    }

    @Test func numbersAreGroupedByThousands() {
        #expect(ScenarioSelection.grouped(7) == "7")
        #expect(ScenarioSelection.grouped(100_000) == "100,000")
        #expect(ScenarioSelection.grouped(1_234_567) == "1,234,567")
    }
}
