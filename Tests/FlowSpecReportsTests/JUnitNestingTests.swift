import Foundation
import Testing

@testable import FlowSpecReports

/// `flowspec merge` reads JUnit files into a tree whose own operations recurse once a level: a file nested 200,000
/// deep overflowed the stack (the process died), 20,000 deep took 10 s and 1.8 GB. Nesting is bounded on read,
/// with an error naming the file and the limit; the files CI tools write (a handful of levels) are unaffected.
@Suite(.timeLimit(.minutes(2))) struct JUnitNestingTests {
    /// `depth` elements inside each other: a testsuite whose testcase's failure holds the rest.
    static func nested(_ depth: Int) -> String {
        let inner = max(0, depth - 3)
        return "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"deep\"><testcase name=\"c\">"
            + String(repeating: "<x>", count: inner) + String(repeating: "</x>", count: inner)
            + "</testcase></testsuite></testsuites>\n"
    }

    static func merge(_ text: String) throws(ReportMergeError) -> String {
        try ReportMerge.merge([ReportMerge.Input(name: "shard-1.xml", text: text)]).text
    }

    @Test(arguments: [XMLTreeParser.maxDepth + 1, 20_000, 200_000])
    func aFileNestedTooDeeplyIsRefusedNamingTheFileAndTheLimit(_ depth: Int) throws {
        let started = ContinuousClock.now
        let error = try #require(throws: ReportMergeError.self) { try Self.merge(Self.nested(depth)) }
        #expect(
            error.description.hasPrefix("shard-1.xml: elements nested deeper than 256 levels at line 2"), "\(error)")
        #expect(ContinuousClock.now - started < .seconds(5), "refusing \(depth) levels took too long")
    }

    @Test func theDeepestAllowedFileIsMerged() throws {
        let merged = try Self.merge(Self.nested(XMLTreeParser.maxDepth))
        #expect(merged.contains("<testcase name=\"c\">"))
        #expect(
            merged.components(separatedBy: "<x").count - 1 == XMLTreeParser.maxDepth - 3,
            "every level survives (the innermost as <x/>)")
    }

    /// Wide files cost time in proportion to their size: 50,000 test cases in one suite.
    @Test func aWideFileMergesQuickly() throws {
        let cases = (0..<50_000).map { "<testcase name=\"case \($0)\" classname=\"wide\" time=\"0.001\"/>" }.joined(
            separator: "\n")
        let text =
            "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"wide\" tests=\"50000\">\n\(cases)\n</testsuite></testsuites>\n"
        let started = ContinuousClock.now
        let merged = try Self.merge(text)
        #expect(merged.contains("tests=\"50000\""))
        #expect(ContinuousClock.now - started < .seconds(20), "50,000 test cases took too long")
    }
}
