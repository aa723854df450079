import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecScenarios

/// A scenario carrying only what selection looks at.
private func scenario(_ name: String, file: String = "scenarios/a.yaml", tags: [String] = [], live: Bool = false)
    -> Scenario
{
    Scenario(
        name: name, file: file, location: SourceLocation(file: file, line: 1, column: 1), tags: tags, live: live,
        requiredVars: [], steps: [], inputs: ScenarioInputs(), store: [:], vars: [:], clockStart: 0, exchanges: [],
        anyOrder: false, expect: nil)
}

private func parseError(_ text: String) -> TagExpressionError? {
    do {
        _ = try TagExpression.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite(.timeLimit(.minutes(5))) struct TagExpressionTests {
    @Test func parsesWithNotTighterThanAndTighterThanOr() throws {
        #expect(try TagExpression.parse("smoke").description == "smoke")
        #expect(try TagExpression.parse("a or b and c").description == "(a or (b and c))")
        #expect(try TagExpression.parse("a and b or c").description == "((a and b) or c)")
        #expect(try TagExpression.parse("not a and b").description == "((not a) and b)")
        #expect(try TagExpression.parse("not not a").description == "(not (not a))")
        #expect(try TagExpression.parse("(a or b) and not c").description == "((a or b) and (not c))")
        #expect(try TagExpression.parse("a and b and c").description == "((a and b) and c)")
        #expect(try TagExpression.parse("  ( ( x ) )  ").description == "x")
    }

    @Test func tagNamesMayUseDotsColonsSlashesDashesAndDigits() throws {
        #expect(
            try TagExpression.parse("team:auth/v2.1-beta_x and 2fa") == .and(.tag("team:auth/v2.1-beta_x"), .tag("2fa"))
        )
        #expect(
            try TagExpression.parse("android and notable") == .and(.tag("android"), .tag("notable")),
            "operators are whole words")
    }

    @Test func evaluatesAgainstATagSet() throws {
        let expression = try TagExpression.parse("(a or b) and not c")
        #expect(expression.matches(["a"]))
        #expect(expression.matches(["b", "x"]))
        #expect(!expression.matches(["a", "c"]))
        #expect(!expression.matches(["x"]))
        #expect(!expression.matches([]))
        #expect(try TagExpression.parse("not live").matches(["scripted"]))
        #expect(!(try TagExpression.parse("not live").matches(["live"])))
        // Precedence changes the answer: a or (b and c) is true with only a; (a or b) and c is not.
        #expect(try TagExpression.parse("a or b and c").matches(["a"]))
        #expect(!(try TagExpression.parse("(a or b) and c").matches(["a"])))
        #expect(try TagExpression.parse("not a and b").matches(["b"]))
        #expect(!(try TagExpression.parse("not (a and b)").matches(["a", "b"])))
    }

    @Test func listsTheTagsItMentions() throws {
        #expect(try TagExpression.parse("(a or b) and not c and a").tagNames == ["a", "b", "c"])
    }

    @Test func errorsNameTheColumnAndWhatWasExpected() {
        #expect(parseError("smoke and")?.description == #"expected a tag name or ( after "and" at column 10"#)
        #expect(parseError("smoke and")?.column == 10)
        #expect(parseError("")?.description == "the expression is empty: expected a tag name or ( at column 1")
        #expect(parseError("smoke slow")?.description == #"expected and or or after "smoke" at column 7, found "slow""#)
        #expect(parseError("and smoke")?.description == #"expected a tag name or ( at column 1, found "and""#)
        #expect(parseError("not")?.description == #"expected a tag name or ( after "not" at column 4"#)
        #expect(parseError("(a or b")?.description == #"expected ) to close the ( from column 1 after "b" at column 8"#)
        #expect(parseError("(a b)")?.description == #"expected and, or or ) after "a" at column 4, found "b""#)
        #expect(parseError("a)")?.description == "unmatched ) at column 2: no ( before it")
        #expect(parseError("()")?.description == #"expected a tag name or ( after "(" at column 2, found ")""#)
        #expect(parseError("a or or b")?.column == 6)
    }

    @Test func foreignOperatorsGetAHint() {
        #expect(parseError("a && b")?.description == #"unexpected character "&" at column 3 (write `and`)"#)
        #expect(parseError("a || b")?.description == #"unexpected character "|" at column 3 (write `or`)"#)
        #expect(parseError("!a")?.description == #"unexpected character "!" at column 1 (write `not`)"#)
        #expect(parseError("a, b")?.column == 2)
        #expect(parseError("smoke é")?.description.contains("column 7") == true)
    }
}

@Suite(.timeLimit(.minutes(5))) struct ShardTests {
    @Test func everyScenarioLandsInExactlyOneShardAndSizesDifferByAtMostOne() throws {
        let items = Array(0..<23)
        for count in 1...5 {
            let shards = try (1...count).map { try Shard(index: $0, count: count).select(items) }
            #expect(shards.flatMap { $0 }.sorted() == items, "N=\(count): the union is the whole list, nothing twice")
            let sizes = shards.map(\.count)
            #expect(sizes.max()! - sizes.min()! <= 1, "N=\(count): sizes \(sizes)")
        }
    }

    @Test func roundRobinOverTheGivenOrder() throws {
        #expect(try Shard.parse("2/3").select(Array(0..<8)) == [1, 4, 7])
        #expect(try Shard.parse("1/1").select([5, 6]) == [5, 6])
        #expect(try Shard.parse("3/3").select([0, 1]) == [], "more shards than items leaves some empty")
    }

    @Test func parsingRejectsNonsenseWithTheFix() {
        #expect(throws: ShardError.self) { try Shard.parse("4/3") }
        #expect(throws: ShardError.self) { try Shard.parse("0/3") }
        #expect(throws: ShardError.self) { try Shard.parse("1/0") }
        #expect(throws: ShardError.self) { try Shard.parse("2") }
        #expect(throws: ShardError.self) { try Shard.parse("a/b") }
        #expect(throws: ShardError.self) { try Shard.parse("1/2/3") }
        do {
            _ = try Shard.parse("4/3")
        } catch {
            #expect(error.description == "--shard 4/3: K must be between 1 and 3 (shards are numbered 1/3 to 3/3)")
        }
        do {
            _ = try Shard.parse("two")
        } catch {
            #expect(error.description.contains("--shard takes K/N"))
            #expect(error.description.contains("got `two`"))
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct SeededShuffleTests {
    let items = Array(0..<40)

    @Test func sameSeedSameOrder() {
        #expect(items.shuffled(seed: 7) == items.shuffled(seed: 7))
    }

    @Test func differentSeedDifferentOrder() {
        #expect(items.shuffled(seed: 7) != items.shuffled(seed: 8))
        #expect(
            items.shuffled(seed: 7) != items, "a shuffle of 40 items that changes nothing means it is not shuffling")
    }

    @Test func isAPermutation() {
        for seed: UInt64 in [0, 1, 42, .max] {
            #expect(items.shuffled(seed: seed).sorted() == items)
        }
        #expect([Int]().shuffled(seed: 3) == [])
        #expect([9].shuffled(seed: 3) == [9])
    }

    @Test func theOrderIsFixedForever() {
        // Pinned output: a change here means `--seed` no longer replays the orders people wrote down.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        // Computed independently (a few lines of Python doing SplitMix64 + Fisher–Yates from the last index down).
        #expect(Array(0..<10).shuffled(seed: 7) == [8, 1, 5, 9, 0, 4, 3, 2, 6, 7])
    }
}

@Suite(.timeLimit(.minutes(5))) struct ScenarioSelectionTests {
    let suite = [
        scenario("zeta login", file: "scenarios/b.yaml", tags: ["smoke", "staff"]),
        scenario("alpha logout", file: "scenarios/a.yaml", tags: ["staff"]),
        scenario("live me", file: "scenarios/live/me.yaml", tags: ["staff"], live: true),
        scenario("customer otp", file: "scenarios/c.yaml", tags: ["smoke", "customer", "slow"]),
    ]

    func names(_ runs: [ScenarioSelection.Run]) -> [String] { runs.map(\.scenario.name) }

    @Test func sortsByFileThenName() {
        #expect(names(ScenarioSelection().plan(suite)) == ["alpha logout", "zeta login", "customer otp", "live me"])
    }

    @Test func tagsSelectAndRepeatedTagsMeanAnd() throws {
        let smoke = ScenarioSelection(tagExpressions: [try .parse("smoke")])
        #expect(names(smoke.plan(suite)) == ["zeta login", "customer otp"])
        let both = ScenarioSelection(tagExpressions: [try .parse("smoke"), try .parse("not slow")])
        #expect(names(both.plan(suite)) == ["zeta login"])
    }

    @Test func liveAndScriptedAreImplicitTags() throws {
        #expect(
            names(ScenarioSelection(tagExpressions: [try .parse("not live")]).plan(suite)) == [
                "alpha logout", "zeta login", "customer otp",
            ])
        #expect(names(ScenarioSelection(tagExpressions: [try .parse("live")]).plan(suite)) == ["live me"])
        #expect(
            names(ScenarioSelection(tagExpressions: [try .parse("scripted and staff")]).plan(suite)) == [
                "alpha logout", "zeta login",
            ])
        #expect(suite[2].displayTags == ["staff", "live"])
        #expect(scenario("x", tags: ["live"], live: true).displayTags == ["live"], "never listed twice")
    }

    @Test func filterThenTagThenShard() throws {
        let selection = ScenarioSelection(
            namePattern: RegexCache.compile("o"), tagExpressions: [try .parse("not customer")],
            shard: try Shard(index: 2, count: 2))
        // After filter and tag: alpha logout, zeta login, live me → shard 2/2 takes the second.
        #expect(names(selection.plan(suite)) == ["zeta login"])
    }

    @Test func repeatNumbersEachRunAndKeepsAScenariosRunsTogether() {
        let runs = ScenarioSelection(namePattern: RegexCache.compile("^(alpha|zeta)"), repetitions: 3).plan(suite)
        #expect(
            names(runs) == ["alpha logout", "alpha logout", "alpha logout", "zeta login", "zeta login", "zeta login"])
        #expect(runs.map(\.repetition) == [1, 2, 3, 1, 2, 3])
        #expect(ScenarioSelection().plan(suite).allSatisfy { $0.repetition == nil })
    }

    @Test func shuffleReordersTheExpandedListDeterministically() {
        let sorted = ScenarioSelection(repetitions: 2).plan(suite)
        let first = ScenarioSelection(shuffleSeed: 11, repetitions: 2).plan(suite)
        let again = ScenarioSelection(shuffleSeed: 11, repetitions: 2).plan(suite)
        func keys(_ runs: [ScenarioSelection.Run]) -> [String] { runs.map { "\($0.scenario.name)#\($0.repetition!)" } }
        #expect(keys(first) == keys(again))
        #expect(keys(first).sorted() == keys(sorted).sorted())
        let seeds: [UInt64] = [1, 2, 3, 4, 5]
        #expect(seeds.contains { keys(ScenarioSelection(shuffleSeed: $0, repetitions: 2).plan(suite)) != keys(sorted) })
    }

    @Test func shardingIgnoresTheSeed() throws {
        let plain = ScenarioSelection(shard: try Shard(index: 1, count: 2)).plan(suite)
        let shuffled = ScenarioSelection(shard: try Shard(index: 1, count: 2), shuffleSeed: 99).plan(suite)
        #expect(Set(names(plain)) == Set(names(shuffled)))
    }

    @Test func unknownTagsAreReportedWithTheClosestKnownOne() throws {
        let selection = ScenarioSelection(tagExpressions: [try .parse("smok or staff or zzzzzz or scripted")])
        let unknown = selection.unknownTags(in: suite)
        #expect(unknown.map(\.tag) == ["smok", "zzzzzz"])
        #expect(unknown.map(\.closest) == ["smoke", nil])
    }
}
