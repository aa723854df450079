import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `flowspec run --report …` and `flowspec merge` as a CI job uses them.
@Suite(.timeLimit(.minutes(5))) struct ReportsEndToEndTests {
    struct Counts: Equatable { var total = 0, passed = 0, failed = 0, skipped = 0 }

    /// `45 passed, 0 failed[, 2 skipped]` from the console.
    func summary(_ text: String) throws -> Counts {
        let match = try #require(text.firstMatch(of: #/(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/#))
        let passed = Int(match.1)!, failed = Int(match.2)!, skipped = match.3.flatMap { Int($0) } ?? 0
        return Counts(total: passed + failed + skipped, passed: passed, failed: failed, skipped: skipped)
    }

    func junitCounts(_ path: URL) throws -> Counts {
        let root = try #require(try XMLDocument(contentsOf: path, options: []).rootElement())
        func number(_ name: String) -> Int { Int(root.attribute(forName: name)?.stringValue ?? "") ?? -1 }
        let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        #expect(cases.count == number("tests"))
        return Counts(
            total: number("tests"), passed: number("tests") - number("failures") - number("errors") - number("skipped"),
            failed: number("failures") + number("errors"), skipped: number("skipped"))
    }

    func json(_ path: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
    }

    func jsonCounts(_ document: [String: Any]) throws -> Counts {
        let summary = try #require(document["summary"] as? [String: Int])
        return Counts(
            total: summary["total"] ?? -1, passed: summary["passed"] ?? -1, failed: summary["failed"] ?? -1,
            skipped: summary["skipped"] ?? -1)
    }

    func names(_ document: [String: Any]) -> [String] {
        ((document["scenarios"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
    }

    @Test func reportsAgreeWithTheSummaryAndTAPOwnsStandardOutput() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("junit.xml"), report = dir.appendingPathComponent("report.json")
        let result = try await FlowSpecBinary.run([
            "run", "scenarios/repairminder", "--report", "junit=\(junit.path)", "--report", "json=\(report.path)",
            "--report", "tap",
        ])
        #expect(result.status == 0, "\(result.all)")
        let counts = try summary(result.stderr)
        #expect(counts.total > 10)
        #expect(!result.stdout.contains("PASS "), "console lines go to standard error when TAP owns standard output")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "TAP version 13")
        #expect(lines.dropFirst().first.map(String.init) == "1..\(counts.total)")
        #expect(lines.filter { $0.hasPrefix("ok ") }.count == counts.passed + counts.skipped)
        #expect(lines.filter { $0.hasPrefix("not ok ") }.count == counts.failed)
        #expect(try junitCounts(junit) == counts)
        let document = try json(report)
        #expect(try jsonCounts(document) == counts)
        #expect(names(document).count == counts.total)
        #expect(document["schema"] as? String == "flowspec-report")
        // A JSON report asks for traces (runs record nothing when no report shows them): every scenario has its runs.
        let scenarios = (document["scenarios"] as? [[String: Any]]) ?? []
        #expect(!scenarios.isEmpty && scenarios.allSatisfy { (($0["runs"] as? [Any]) ?? []).isEmpty == false })
    }

    @Test func mergingTwoShardsGivesTheWholeRun() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ name: String) -> URL { dir.appendingPathComponent(name) }
        let whole = try await FlowSpecBinary.run([
            "run", "scenarios/repairminder", "--report", "junit=\(path("all.xml").path)", "--report",
            "json=\(path("all.json").path)",
            "--report", "coverage=\(path("all-coverage.json").path)",
        ])
        #expect(whole.status == 0, "\(whole.all)")
        for shard in 1...2 {
            let run = try await FlowSpecBinary.run([
                "run", "scenarios/repairminder", "--shard", "\(shard)/2",
                "--report", "junit=\(path("s\(shard).xml").path)", "--report", "json=\(path("s\(shard).json").path)",
                "--report", "coverage=\(path("s\(shard)-coverage.json").path)",
            ])
            #expect(run.status == 0, "\(run.all)")
        }
        #expect(try junitCounts(path("s1.xml")).total > 0)
        #expect(try junitCounts(path("s2.xml")).total > 0)

        let mergedXML = try await FlowSpecBinary.run([
            "merge", "-o", path("merged.xml").path, path("s1.xml").path, path("s2.xml").path,
        ])
        #expect(mergedXML.status == 0, "\(mergedXML.all)")
        #expect(mergedXML.stderr.contains("merged 2 JUnit XML reports"))
        #expect(try junitCounts(path("merged.xml")) == junitCounts(path("all.xml")))

        let mergedJSON = try await FlowSpecBinary.run([
            "merge", "-o", path("merged.json").path, path("s1.json").path, path("s2.json").path,
        ])
        #expect(mergedJSON.status == 0, "\(mergedJSON.all)")
        let merged = try json(path("merged.json")), all = try json(path("all.json"))
        #expect(try jsonCounts(merged) == jsonCounts(all))
        #expect(names(merged).sorted() == names(all).sorted())

        let mergedCoverage = try await FlowSpecBinary.run([
            "merge", "-o", "-", path("s1-coverage.json").path, path("s2-coverage.json").path,
        ])
        #expect(mergedCoverage.status == 0, "\(mergedCoverage.all)")
        #expect(mergedCoverage.stdout.contains("\"flowspec-coverage\""))
    }

    @Test func mergeRefusesMixedUnreadableAndMalformedFiles() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let run = try await FlowSpecBinary.run([
            "run", "scenarios/repairminder", "--filter", "logout", "--report", "junit=\(path("j.xml"))", "--report",
            "json=\(path("r.json"))",
        ])
        #expect(run.status == 0, "\(run.all)")
        try "<testsuites><testsuite name=\"cut off".write(toFile: path("broken.xml"), atomically: true, encoding: .utf8)
        try "<!DOCTYPE html><html><body>report</body></html>".write(
            toFile: path("page.html"), atomically: true, encoding: .utf8)

        let mixed = try await FlowSpecBinary.run(["merge", "-o", path("out.xml"), path("j.xml"), path("r.json")])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("\(path("r.json")) is a JSON report"), "\(mixed.all)")
        let broken = try await FlowSpecBinary.run(["merge", "-o", path("out.xml"), path("j.xml"), path("broken.xml")])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("\(path("broken.xml")): not well-formed XML"), "\(broken.all)")
        let html = try await FlowSpecBinary.run(["merge", "-o", path("out.xml"), path("page.html")])
        #expect(html.status == 2)
        #expect(html.stderr.contains("root element is <html>"), "\(html.all)")
        let missing = try await FlowSpecBinary.run(["merge", "-o", path("out.xml"), path("j.xml"), path("nope.xml")])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope.xml: no such file"), "\(missing.all)")
        let noFolder = try await FlowSpecBinary.run(["merge", "-o", path("no/such/out.xml"), path("j.xml")])
        #expect(noFolder.status == 2)
        #expect(noFolder.stderr.contains("does not exist"), "\(noFolder.all)")
        #expect(!FileManager.default.fileExists(atPath: path("out.xml")), "nothing is written when the merge fails")
    }

    @Test func aMissingReportFolderIsAUsageErrorBeforeAnythingRuns() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("missing/junit.xml").path
        let result = try await FlowSpecBinary.run(["run", "scenarios/repairminder", "--report", "junit=\(target)"])
        #expect(result.status == 2, "\(result.all)")
        #expect(result.stderr.contains("the folder \(dir.appendingPathComponent("missing").path) does not exist"))
        #expect(!result.all.contains("PASS"), "no scenario runs when a report cannot be written")
    }

    @Test func aReportFileIsReplacedWholeWithNoTemporaryFilesLeft() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("junit.xml")
        try String(repeating: "old content that is much longer than nothing\n", count: 5000).write(
            to: junit, atomically: true, encoding: .utf8)
        let result = try await FlowSpecBinary.run([
            "run", "scenarios/repairminder", "--filter", "logout", "--report", "junit=\(junit.path)",
        ])
        #expect(result.status == 0, "\(result.all)")
        let text = try String(contentsOf: junit, encoding: .utf8)
        #expect(text.hasPrefix("<?xml"))
        #expect(text.hasSuffix("</testsuites>\n"))
        #expect(!text.contains("old content"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["junit.xml"])
    }
}
