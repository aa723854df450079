import Foundation
import Testing

/// `flowspec run` selection on the real binary: `--list`, `--tag`, `--shard`, `--shuffle --seed`, `--repeat`,
/// `FLOWSPEC_VAR_*`. Listing the shipped suite keeps these fast; a few tiny scripted scenarios run for real.
@Suite(.timeLimit(.minutes(5))) struct SelectionEndToEndTests {
    /// One `--list` line: `file  name[ (run i of n)]  [tags]`.
    struct Listed: Hashable {
        var file: String
        var name: String
        var tags: [String]
        var key: String { "\(file)|\(name)" }
    }

    func list(_ extra: [String], environment: [String: String] = [:]) async throws -> (
        entries: [Listed], last: String, output: FlowSpecBinary.Output
    ) {
        let result = try await FlowSpecBinary.run(["run", "scenarios", "--list"] + extra, environment: environment)
        #expect(result.status == 0, "\(result.all)")
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let last = lines.popLast() ?? ""
        let entries = lines.compactMap { line -> Listed? in
            guard let space = line.firstIndex(of: " "), let open = line.range(of: "  [", options: .backwards),
                line.hasSuffix("]")
            else {
                Issue.record("not a list line: \(line)")
                return nil
            }
            let name = line[space..<open.lowerBound].trimmingCharacters(in: .whitespaces)
            let tags = line[open.upperBound..<line.index(before: line.endIndex)].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return Listed(file: String(line[..<space]), name: name, tags: tags)
        }
        return (entries, last, result)
    }

    /// Every shipped scenario file with its `tags:` and whether it is live, read straight from the YAML.
    func shippedFiles() throws -> [(file: String, tags: Set<String>, live: Bool)] {
        let root = FlowSpecBinary.root
        let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent("scenarios").path)
        var out: [(String, Set<String>, Bool)] = []
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".yaml") else { continue }
            let text = try String(contentsOf: root.appendingPathComponent("scenarios/\(path)"), encoding: .utf8)
            let lines = text.split(separator: "\n")
            let tagLine = lines.first { $0.hasPrefix("tags:") }.map(String.init) ?? "tags: []"
            let inner = tagLine.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
            let tags = Set(inner.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            out.append(("scenarios/\(path)", tags, lines.contains("live: true")))
        }
        return out
    }

    // MARK: --list

    @Test func listPrintsEveryShippedScenarioAlignedWithItsTagsThenTheCount() async throws {
        let (entries, last, result) = try await list([])
        let files = try shippedFiles()
        #expect(entries.count == files.count)
        #expect(last == "\(files.count) scenarios")
        #expect(Set(entries.map(\.file)) == Set(files.map(\.file)))
        #expect(entries.map(\.key) == entries.map(\.key).sorted(), "listed in (file, name) order")
        let invalidPassword = try #require(
            entries.first { $0.file == "scenarios/repairminder/staff-login-invalid-password.yaml" })
        #expect(invalidPassword.tags == ["repairminder", "staff", "password", "negative", "scripted"])
        #expect(entries.allSatisfy { $0.tags.last == "scripted" || $0.tags.contains("live") })
        // Aligned: every name starts in the same column, right after the widest file and two spaces.
        let width = files.map(\.file.count).max()!
        for line in result.stdout.split(separator: "\n").dropLast() {
            #expect(
                line.dropFirst(width).hasPrefix("  ") && !line.dropFirst(width + 2).hasPrefix(" "),
                "misaligned: \(line)")
        }
        // --list runs nothing: no PASS lines and no summary (scenario names may say "passed").
        #expect(
            !result.stdout.split(separator: "\n").contains {
                $0.hasPrefix("PASS ") || $0.range(of: #"^\d+ passed, \d+ failed"#, options: .regularExpression) != nil
            })
    }

    // MARK: --tag

    @Test func tagSelectsExactlyTheTaggedScenarios() async throws {
        let files = try shippedFiles()
        let magicLink = Set(files.filter { $0.tags.contains("magic-link") }.map(\.file))
        #expect(magicLink.count >= 3)
        #expect(Set(try await list(["--tag", "magic-link"]).entries.map(\.file)) == magicLink)

        let positive = Set(files.filter { $0.tags.contains("magic-link") && !$0.tags.contains("negative") }.map(\.file))
        #expect(!positive.isEmpty && positive != magicLink)
        #expect(Set(try await list(["--tag", "magic-link and not negative"]).entries.map(\.file)) == positive)

        let either = Set(
            files.filter { ($0.tags.contains("legacy") || $0.tags.contains("2fa")) && !$0.tags.contains("negative") }
                .map(\.file))
        #expect(Set(try await list(["--tag", "(legacy or 2fa) and not negative"]).entries.map(\.file)) == either)
    }

    @Test func repeatedTagOptionsMustAllMatch() async throws {
        let repeated = try await list(["--tag", "staff", "--tag", "negative"]).entries.map(\.key)
        let combined = try await list(["--tag", "staff and negative"]).entries.map(\.key)
        #expect(!repeated.isEmpty)
        #expect(repeated == combined)
    }

    @Test func liveAndScriptedAreImplicitTags() async throws {
        let files = try shippedFiles()
        let scripted = Set(files.filter { !$0.live }.map(\.file))
        let notLive = try await list(["--tag", "not live"])
        #expect(Set(notLive.entries.map(\.file)) == scripted)
        #expect(Set(try await list(["--tag", "scripted"]).entries.map(\.file)) == scripted)
        #expect(Set(try await list(["--tag", "live"]).entries.map(\.file)) == Set(files.filter(\.live).map(\.file)))
    }

    @Test func aTagNoScenarioHasIsAWarningWithTheClosestOne() async throws {
        let (entries, last, result) = try await list(["--tag", "magic-lnk"])
        #expect(entries.isEmpty)
        #expect(last == "0 scenarios")
        #expect(
            result.stderr.contains("warning: --tag: no scenario has the tag `magic-lnk`; did you mean `magic-link`?"),
            "\(result.stderr)")
    }

    // MARK: --shard

    @Test func threeShardsAreDisjointAndTogetherListEveryScenario() async throws {
        let all = try await list([]).entries.map(\.key)
        var shards: [[String]] = []
        for k in 1...3 { shards.append(try await list(["--shard", "\(k)/3"]).entries.map(\.key)) }
        #expect(shards.flatMap { $0 }.sorted() == all.sorted(), "the union is the whole suite, nothing twice")
        for (i, a) in shards.enumerated() {
            for b in shards[(i + 1)...] { #expect(Set(a).isDisjoint(with: b)) }
        }
        let sizes = shards.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1, "sizes \(sizes)")
        #expect(try await list(["--shard", "2/3"]).last == "\(sizes[1]) scenarios")
    }

    @Test func shardingSplitsOnlyTheSelectedScenarios() async throws {
        let tagged = try await list(["--tag", "staff"]).entries.map(\.key)
        var halves: [[String]] = []
        for k in 1...2 { halves.append(try await list(["--tag", "staff", "--shard", "\(k)/2"]).entries.map(\.key)) }
        #expect((halves[0] + halves[1]).sorted() == tagged.sorted())
    }

    // MARK: --shuffle --seed

    @Test func theSameSeedGivesTheSameOrderAndItIsNotTheSortedOne() async throws {
        let sorted = try await list([]).entries.map(\.key)
        let first = try await list(["--shuffle", "--seed", "7"])
        let second = try await list(["--shuffle", "--seed", "7"]).entries.map(\.key)
        #expect(first.entries.map(\.key) == second)
        #expect(second != sorted)
        #expect(second.sorted() == sorted)
        #expect(try await list(["--shuffle", "--seed", "8"]).entries.map(\.key) != second)
        #expect(first.output.stderr.contains("shuffled with --seed 7"))
    }

    @Test func shuffleWithoutASeedPrintsOneThatReplaysTheOrder() async throws {
        let random = try await list(["--shuffle"])
        let seed = try #require(
            random.output.stderr.firstMatch(of: /shuffled with --seed (\d+)/)?.1, "\(random.output.stderr)")
        #expect(try await list(["--shuffle", "--seed", String(seed)]).entries.map(\.key) == random.entries.map(\.key))
    }

    // MARK: --repeat and FLOWSPEC_VAR_ on real runs

    /// A one-exchange scripted scenario: the wrong-password login, its email taken from `${vars.email}` when asked.
    func rejectedLogin(name: String, email: String, emailInput: String) -> String {
        """
        scenario: \(name)
        tags: [tiny]
        flow: repairminder.staff-password-2fa
        inputs:
          email: "\(emailInput)"
          password: wrong-password
        exchanges:
          - request:
              method: POST
              path: /api/auth/login
              json: { email: "\(email)", password: wrong-password }
            response:
              status: 401
              json: { error: "Invalid credentials" }
        expect:
          outcome: rejected
          request_count: 1
        """
    }

    /// Runs `scenarios` (file name → YAML) from a fresh folder; `$DIR` in an argument is a folder beside it
    /// holding `otherFiles` (a vars file must not sit among the scenarios, or it is loaded as one).
    func run(
        _ scenarios: [String: String], _ arguments: [String], otherFiles: [String: String] = [:],
        environment: [String: String] = [:]
    ) async throws -> FlowSpecBinary.Output {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarioDir = dir.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarioDir, withIntermediateDirectories: true)
        for (file, text) in scenarios {
            try text.write(to: scenarioDir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        for (file, text) in otherFiles {
            try text.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let flows = FlowSpecBinary.root.appendingPathComponent("flows").path
        return try await FlowSpecBinary.run(
            ["run", "--flows", flows, scenarioDir.path]
                + arguments.map { $0.replacingOccurrences(of: "$DIR", with: dir.path) },
            environment: environment)
    }

    @Test func repeatRunsAScenarioThreeTimesAndReportsEachRun() async throws {
        let scenario = [
            "tiny.yaml": rejectedLogin(
                name: "tiny rejected login", email: "staff@example.com", emailInput: "staff@example.com")
        ]
        let result = try await run(scenario, ["--repeat", "3"])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.hasSuffix("3 passed, 0 failed\n"), "\(result.stdout)")
        let listed = try await run(scenario, ["--repeat", "3", "--list"])
        #expect(listed.stdout.contains("tiny rejected login (run 1 of 3)  [tiny, scripted]"), "\(listed.stdout)")
        #expect(listed.stdout.contains("tiny rejected login (run 3 of 3)"))
        #expect(listed.stdout.hasSuffix("3 scenarios (1 × 3 runs)\n"))
    }

    @Test func environmentVariablesReachScenariosAndVarWinsOverThem() async throws {
        let scenarios = [
            "env.yaml": rejectedLogin(
                name: "sends the environment's email", email: "from-env@example.com", emailInput: "${vars.email}"),
            "flag.yaml": rejectedLogin(
                name: "sends the flag's email", email: "from-flag@example.com", emailInput: "${vars.email}"),
        ]
        let varsFile = ["vars.yaml": "email: from-file@example.com\n"]
        let environment = ["FLOWSPEC_VAR_email": "from-env@example.com"]
        let envOnly = try await run(scenarios, ["--filter", "environment"], environment: environment)
        #expect(envOnly.status == 0, "\(envOnly.all)")
        #expect(envOnly.stdout.hasSuffix("1 passed, 0 failed\n"))

        // The environment wins over a vars file…
        let overFile = try await run(
            scenarios, ["--filter", "environment", "--vars-file", "$DIR/vars.yaml"], otherFiles: varsFile,
            environment: environment)
        #expect(overFile.status == 0, "\(overFile.all)")

        // …and --var wins over the environment.
        let flagWins = try await run(
            scenarios, ["--filter", "flag", "--var", "email=from-flag@example.com"], environment: environment)
        #expect(flagWins.status == 0, "\(flagWins.all)")
        let envLoses = try await run(
            scenarios, ["--filter", "environment", "--var", "email=from-flag@example.com"], environment: environment)
        #expect(envLoses.status == 1, "\(envLoses.all)")
        #expect(
            envLoses.stdout.contains("from-flag@example.com"),
            "the unmatched request shows the --var value: \(envLoses.stdout)")

        // Without the environment variable the vars file's value is sent, which neither scenario expects.
        let fileOnly = try await run(
            scenarios, ["--filter", "environment", "--vars-file", "$DIR/vars.yaml"], otherFiles: varsFile)
        #expect(fileOnly.status == 1, "\(fileOnly.all)")
    }

    @Test func severalVarsFilesYAMLAndJSONTheLaterWins() async throws {
        let scenarios = [
            "flag.yaml": rejectedLogin(
                name: "sends the later file's email", email: "from-later@example.com", emailInput: "${vars.email}")
        ]
        let files = [
            "first.yaml": "email: from-first@example.com\nother: kept\n",
            "later.json": #"{"email": "from-later@example.com"}"#,
        ]
        let laterWins = try await run(
            scenarios, ["--vars-file", "$DIR/first.yaml", "--vars-file", "$DIR/later.json"], otherFiles: files)
        #expect(laterWins.status == 0, "\(laterWins.all)")
        let reversed = try await run(
            scenarios, ["--vars-file", "$DIR/later.json", "--vars-file", "$DIR/first.yaml"], otherFiles: files)
        #expect(reversed.status == 1, "\(reversed.all)")
        #expect(
            reversed.stdout.contains("from-first@example.com"),
            "the unmatched request shows the later file's value: \(reversed.stdout)")
    }

    // MARK: usage errors

    @Test func badSelectionOptionsExit2AndSayWhatToFix() async throws {
        let badTag = try await FlowSpecBinary.run(["run", "scenarios", "--tag", "smoke and"])
        #expect(badTag.status == 2)
        #expect(
            badTag.stderr.contains(
                #"'smoke and' is invalid for '--tag <expr>': expected a tag name or ( after "and" at column 10"#),
            "\(badTag.stderr)")

        let foreign = try await FlowSpecBinary.run(["run", "scenarios", "--tag", "a && b"])
        #expect(foreign.status == 2)
        #expect(foreign.stderr.contains("column 3 (write `and`)"), "\(foreign.stderr)")

        let shard = try await FlowSpecBinary.run(["run", "scenarios", "--shard", "4/3"])
        #expect(shard.status == 2)
        #expect(
            shard.stderr.contains("'4/3' is invalid for '--shard <K/N>': K must be between 1 and 3"), "\(shard.stderr)")

        let shardShape = try await FlowSpecBinary.run(["run", "scenarios", "--shard", "half"])
        #expect(shardShape.status == 2)
        #expect(shardShape.stderr.contains("--shard takes K/N"), "\(shardShape.stderr)")

        let seed = try await FlowSpecBinary.run(["run", "scenarios", "--seed", "7"])
        #expect(seed.status == 2)
        #expect(seed.stderr.contains("--seed only orders a shuffled run: add --shuffle"), "\(seed.stderr)")

        let badSeed = try await FlowSpecBinary.run(["run", "scenarios", "--shuffle", "--seed", "seven"])
        #expect(badSeed.status == 2)

        let repeatZero = try await FlowSpecBinary.run(["run", "scenarios", "--repeat", "0"])
        #expect(repeatZero.status == 2)
        #expect(repeatZero.stderr.contains("--repeat must be at least 1"), "\(repeatZero.stderr)")
    }
}
