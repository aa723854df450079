import Foundation

/// Merges JUnit XML files: test suites of the same name become one (test cases in input order), every count
/// is recomputed from the test cases, and the result is laid out like `flowspec run` writes it.
enum JUnitMerge {
    static func merge(_ inputs: [ReportMerge.Input]) throws(ReportMergeError) -> String {
        var order: [String] = []
        var parts: [String: [XMLTree]] = [:]
        var runs: [(start: Date?, time: Double)] = []
        var rootName: String?
        for input in inputs {
            let root: XMLTree
            do { root = try XMLTreeParser.parse(input.text) } catch {
                throw ReportMergeError(error.description).in(input.name)
            }
            let suites: [XMLTree]
            switch root.name {
            case "testsuites":
                suites = root.children(named: "testsuite")
                rootName = rootName ?? root[attribute: "name"]
            case "testsuite":
                suites = [root]
            default:
                throw ReportMergeError(
                    "not a JUnit report: the root element is <\(root.name)>, expected <testsuites> or <testsuite>"
                ).in(input.name)
            }
            for suite in suites {
                guard let name = suite[attribute: "name"] else {
                    throw ReportMergeError("a <testsuite> without a name attribute").in(input.name)
                }
                if parts[name] == nil { order.append(name) }
                parts[name, default: []].append(suite)
            }
            let time =
                Double(root[attribute: "time"] ?? "")
                ?? suites.compactMap { Double($0[attribute: "time"] ?? "") }.reduce(0, +)
            let start = suites.compactMap { $0[attribute: "timestamp"].flatMap(parseTimestamp) }.min()
            runs.append((start, time))
        }
        let suites = order.map { merged(parts[$0]!) }
        var root = XMLTree("testsuites", [("name", rootName ?? "flowspec")], children: suites)
        JUnitReport.totals(of: suites).forEach { root[attribute: $0.0] = $0.1 }
        root[attribute: "time"] = JUnitReport.seconds(wallTime(runs))
        return root.document
    }

    /// One suite from the same-named suites of several shards.
    private static func merged(_ suites: [XMLTree]) -> XMLTree {
        let name = suites[0][attribute: "name"]!
        let cases = suites.flatMap { $0.children(named: "testcase") }
        let timestamps = suites.compactMap { $0[attribute: "timestamp"] }
        let earliest = timestamps.min {
            (parseTimestamp($0) ?? .distantFuture) < (parseTimestamp($1) ?? .distantFuture)
        }
        // Shards on different machines have different hosts: naming one of them would mislead.
        let hosts = Set(suites.compactMap { $0[attribute: "hostname"] })
        let time = suites.map { suite in
            Double(suite[attribute: "time"] ?? "")
                ?? suite.children(named: "testcase").compactMap { Double($0[attribute: "time"] ?? "") }.reduce(0, +)
        }.reduce(0, +)
        var suite = JUnitReport.suite(
            name, cases, timestamp: earliest, hostname: hosts.count == 1 ? hosts.first : nil, time: time)
        let properties = suites.flatMap { $0.children(named: "properties") }.prefix(1)
        let extras = suites.flatMap { $0.children.filter { $0.name != "testcase" && $0.name != "properties" } }
        suite.children = Array(properties) + cases + extras
        return suite
    }

    /// From the earliest start to the latest end when every shard says when it started (the suite's wall
    /// time whether shards ran side by side or one after another); else the longest shard.
    static func wallTime(_ runs: [(start: Date?, time: Double)]) -> Double {
        let longest = runs.map(\.time).max() ?? 0
        let starts = runs.compactMap(\.start)
        guard starts.count == runs.count, let first = starts.min() else { return longest }
        let end = runs.map { $0.start!.addingTimeInterval($0.time) }.max()!
        // Timestamps have whole seconds; never report less than one shard took.
        return max(longest, end.timeIntervalSince(first))
    }

    /// `2026-11-21T10:00:00` (UTC, as written by flowspec), with or without a zone or fraction.
    static func parseTimestamp(_ text: String) -> Date? {
        let hasZone = text.hasSuffix("Z") || text.dropFirst(19).contains("+") || text.dropFirst(19).contains("-")
        return JSONReport.parseTimestamp(hasZone ? text : text + "Z")
            ?? (try? Date(
                hasZone ? text : text + "Z", strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}
