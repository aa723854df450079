import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct CoverageEndToEndTests {
    static var flows: String { FlowSpecBinary.root.appendingPathComponent("flows").path }

    @Test func theShippedScenariosTakeEveryTransitionOfTheShippedFlows() async throws {
        let result = try await FlowSpecBinary.run(["coverage", "--all-flows", "--min", "100", "--no-guards"])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.hasPrefix("Flow coverage: transitions 100% ("), "\(result.stdout.prefix(300))")
        #expect(!result.stdout.contains("never taken"))
        #expect(result.stderr.contains(" passed, 0 failed"))
    }

    /// The teeth: drop the scenarios of one branch and --min 100 must fail, naming the line.
    @Test func aBranchWithoutAScenarioFailsTheThresholdAndIsNamedByLine() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = FlowSpecBinary.root.appendingPathComponent("scenarios/traveling")
        let copy = dir.appendingPathComponent("traveling")
        try FileManager.default.copyItem(at: source, to: copy)
        // Every scenario that takes login's `unreachable:` branch.
        var removed = 0
        for case let name as String in FileManager.default.enumerator(atPath: copy.path)! where name.hasSuffix(".yaml")
        {
            let file = copy.appendingPathComponent(name)
            let text = try String(contentsOf: file, encoding: .utf8)
            if text.contains("flow: traveling.login"), text.contains("fail: refused") || text.contains("fail: timeout")
            {
                try FileManager.default.removeItem(at: file)
                removed += 1
            }
        }
        #expect(removed > 0)
        let result = try await FlowSpecBinary.run([
            "coverage", "--flows", CoverageEndToEndTests.flows, "--min", "100", copy.path,
        ])
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stderr.contains("is below --min 100%"))
        #expect(result.stdout.contains("traveling/login.yaml:"))
        #expect(
            result.stdout.contains(
                "traveling.login: transition `login` → `offline` (unreachable: no response) never taken"))
    }

    @Test func runWithCoveragePrintsItAfterTheSummaryAndAllFlowsWidensIt() async throws {
        let arguments = ["run", "scenarios/traveling", "--tag", "not live", "--coverage"]
        let used = try await FlowSpecBinary.run(arguments)
        #expect(used.status == 0, "\(used.all)")
        let summary = try #require(used.stdout.range(of: " passed, 0 failed\n"), "\(used.stdout.suffix(500))")
        let coverage = try #require(
            used.stdout.range(of: "Flow coverage: transitions 100% ("), "\(used.stdout.suffix(1500))")
        #expect(summary.upperBound <= coverage.lowerBound, "coverage comes after the summary line")
        #expect(used.stdout.contains("  traveling.login "))
        #expect(!used.stdout.contains("repairminder."), "only the flows the scenarios ran")

        let all = try await FlowSpecBinary.run(arguments + ["--all-flows"])
        #expect(all.status == 0, "coverage alone never fails a run: \(all.all)")
        #expect(
            all.stdout.range(of: #"Flow coverage: transitions \d+(\.\d)?% \(37/\d{3}\)"#, options: .regularExpression)
                != nil,
            "\(all.stdout.suffix(1500))")
        #expect(
            all.stdout.range(of: #"\n  repairminder\.me +transitions 0% +0/2"#, options: .regularExpression) != nil,
            "flows no scenario ran are listed at 0%: \(all.stdout.suffix(1500))")
    }

    @Test func shardCoverageFilesMergeToTheWholeSuite() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for shard in 1...2 {
            let file = dir.appendingPathComponent("coverage-\(shard).json").path
            let result = try await FlowSpecBinary.run([
                "run", "scenarios/traveling", "--shard", "\(shard)/2", "--quiet", "--report", "coverage=\(file)",
            ])
            #expect(result.status == 0, "\(result.all)")
            files.append(file)
        }
        let alone = try await FlowSpecBinary.run(["coverage", "--from", files[0], "--min", "100"])
        #expect(alone.status == 1, "one shard alone should not cover everything: \(alone.all)")
        let merged = try await FlowSpecBinary.run(["coverage", "--from", files[0], "--from", files[1], "--min", "100"])
        #expect(merged.status == 0, "\(merged.all)")
        let whole = try await FlowSpecBinary.run(["coverage", "scenarios/traveling", "--format", "json"])
        let mergedJSON = try await FlowSpecBinary.run([
            "coverage", "--from", files[0], "--from", files[1], "--format", "json",
        ])
        #expect(mergedJSON.stdout == whole.stdout)
    }

    @Test func badInputsAreUsageErrors() async throws {
        let min = try await FlowSpecBinary.run(["coverage", "--min", "120"])
        #expect(min.status == 2)
        #expect(min.stderr.contains("--min is a percentage from 0 to 100"))
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report.json")
        try #"{"schema":"flowspec-report","version":1}"#.write(to: report, atomically: true, encoding: .utf8)
        let foreign = try await FlowSpecBinary.run(["coverage", "--from", report.path])
        #expect(foreign.status == 2)
        #expect(foreign.stderr.contains("not a FlowSpec coverage file"))
    }
}
