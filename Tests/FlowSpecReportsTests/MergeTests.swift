import FlowSpecLanguage
import Foundation
import Testing

@testable import FlowSpecReports

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite(.timeLimit(.minutes(5))) struct MergeTests {
    /// Two shards: one ran the repairminder scenarios, the other the live ones plus one more repairminder.
    var shardOne: RunRecord {
        SampleRun.record([SampleRun.passed, SampleRun.failed], start: SampleRun.start, duration: 2)
    }
    var shardTwo: RunRecord {
        var extra = SampleRun.passed
        extra.name = "staff logs in again"
        return SampleRun.record(
            [SampleRun.skipped, SampleRun.infrastructure, extra], start: SampleRun.start.addingTimeInterval(1),
            duration: 3)
    }

    func inputs(_ texts: [String]) -> [ReportMerge.Input] {
        texts.enumerated().map { ReportMerge.Input(name: "shard-\($0.offset + 1)", text: $0.element) }
    }

    @Test func junitUnionWithTotalsRecomputed() throws {
        let merged = try ReportMerge.merge(
            inputs([JUnitReport.render(shardOne, hostname: "a"), JUnitReport.render(shardTwo, hostname: "b")]))
        #expect(merged.format.name == "junit")
        let root = try #require(try XMLDocument(xmlString: merged.text, options: []).rootElement())
        func attributes(_ e: XMLElement, _ names: [String]) -> [String?] {
            names.map { e.attribute(forName: $0)?.stringValue }
        }
        #expect(
            attributes(root, ["name", "tests", "failures", "errors", "skipped", "time"]) == [
                "flowspec", "5", "1", "1", "1", "4.000",
            ])
        let suites = root.elements(forName: "testsuite")
        #expect(
            suites.map { $0.attribute(forName: "name")?.stringValue } == ["scenarios/repairminder", "scenarios/live"])
        let repair = suites[0]
        #expect(
            attributes(repair, ["tests", "failures", "errors", "skipped", "timestamp"]) == [
                "3", "1", "0", "0", "2026-11-21T10:00:00",
            ])
        #expect(repair.attribute(forName: "hostname") == nil, "two machines ran it: no single hostname")
        #expect(suites[1].attribute(forName: "hostname")?.stringValue == "b")
        #expect(
            repair.elements(forName: "testcase").map { $0.attribute(forName: "name")?.stringValue }
                == ["staff logs in", "wrong # password \\ rejected", "staff logs in again"])
        // The failure text survives the round trip unchanged.
        let failure = repair.elements(forName: "testcase")[1].elements(forName: "failure").first
        #expect(
            failure?.attribute(forName: "message")?.stringValue
                == "expected outcome `authenticated`, got `rejected`: <&>\"' in the body")
        #expect(
            failure?.stringValue
                == JUnitReport.explanation(SampleRun.failed).replacingOccurrences(of: "\u{1B}", with: "\\u001B"))
    }

    @Test func junitOfOneShardIsUnchanged() throws {
        let text = JUnitReport.render(SampleRun.all, hostname: "h")
        #expect(try ReportMerge.merge(inputs([text])).text == text)
    }

    @Test func jsonConcatenatesAndSums() throws {
        let merged = try ReportMerge.merge(inputs([JSONReport.render(shardTwo), JSONReport.render(shardOne)]))
        #expect(merged.format.name == "json")
        let doc = try #require(JSONValue.parse(merged.text))
        #expect(
            doc["summary"]
                == .object(["total": .number(5), "passed": .number(2), "failed": .number(2), "skipped": .number(1)]))
        #expect(doc["startedAt"] == .string("2026-11-21T10:00:00Z"), "the earliest start")
        #expect(
            doc["durationSeconds"] == .number(4),
            "from the earliest start (10:00:00) to the latest end (10:00:01 + 3 s)")
        #expect(
            doc["scenarios"].arrayValue?.map { $0["name"].stringValue ?? "" }
                == [
                    "live login", "backend down", "staff logs in again", "staff logs in",
                    "wrong # password \\ rejected",
                ])
        #expect(doc["schema"] == .string("flowspec-report"))
        #expect(doc["version"] == .number(1))
        // Laid out exactly as `run` writes it: merging one report gives it back byte for byte.
        let single = JSONReport.render(SampleRun.all)
        #expect(try ReportMerge.merge(inputs([single])).text == single)
    }

    @Test func jsonKeepsFieldsAddedByALaterVersion1() throws {
        var text = JSONReport.render(shardOne)
        text = text.replacingOccurrences(
            of: "\"schema\": \"flowspec-report\",", with: "\"schema\": \"flowspec-report\", \"zNew\": {\"a\": 1},")
        let doc = try #require(
            JSONValue.parse(try ReportMerge.merge(inputs([text, JSONReport.render(shardTwo)])).text))
        #expect(doc["zNew"] == .object(["a": .number(1)]))
    }

    @Test func mixedKindsNameTheOddFile() {
        #expect(throws: ReportMergeError.self) {
            try ReportMerge.merge(inputs([JUnitReport.render(shardOne), JSONReport.render(shardTwo)]))
        }
        do {
            _ = try ReportMerge.merge(
                inputs([JUnitReport.render(shardOne), JUnitReport.render(shardOne), JSONReport.render(shardTwo)]))
        } catch {
            #expect(
                error.description.contains(
                    "shard-3 is a JSON report (flowspec-report) but shard-1 is a JUnit XML report"))
        }
    }

    @Test func malformedInputsAreExplained() {
        func message(_ texts: [String]) -> String {
            do { _ = try ReportMerge.merge(inputs(texts)); return "merged" } catch { return error.description }
        }
        let good = JUnitReport.render(shardOne)
        #expect(message([good, "<testsuites><testsuite name=\"x\">"]).hasPrefix("shard-2: not well-formed XML"))
        #expect(
            message([good, "<html><body/></html>"])
                == "shard-2: not a JUnit report: the root element is <html>, expected <testsuites> or <testsuite>")
        #expect(
            message(["{\"schema\": \"something-else\"}"]).contains(
                "shard-1: a JSON file with \"schema\": \"something-else\""))
        #expect(message(["{\"a\": 1}"]).contains("without a \"schema\" field"))
        #expect(message(["{not json"]).contains("not valid JSON"))
        #expect(message(["hello"]).contains("neither JUnit XML nor a flowspec JSON report"))
        #expect(message(["  \n"]).contains("shard-1: empty"))
        #expect(message([]).contains("nothing to merge"))
        let newer = JSONReport.render(shardOne).replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 2,")
        #expect(
            message([newer])
                == "shard-1: JSON report version 2; this flowspec reads version 1 (the file was written by a newer flowspec)"
        )
        let noStart = JSONReport.render(shardOne).replacingOccurrences(
            of: "\"startedAt\": \"2026-11-21T10:00:00Z\"", with: "\"startedAt\": \"yesterday\"")
        #expect(message([noStart]).contains("\"startedAt\" is missing or not an ISO 8601 time"))
        let badStatus = JSONReport.render(shardOne).replacingOccurrences(
            of: "\"status\": \"passed\"", with: "\"status\": \"green\"")
        #expect(message([badStatus]).contains("scenarios[0] has no \"status\" of passed, failed or skipped"))
    }

    @Test func singleTestsuiteRootIsAccepted() throws {
        let suite =
            "<testsuite name=\"other\" tests=\"1\"><testcase name=\"t\" classname=\"c\" time=\"0.5\"><failure message=\"m\">x</failure></testcase></testsuite>"
        let merged = try ReportMerge.merge(inputs([suite, JUnitReport.render(shardOne, hostname: "a")]))
        let root = try #require(try XMLDocument(xmlString: merged.text, options: []).rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "3")
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        #expect(root.elements(forName: "testsuite").first?.attribute(forName: "time")?.stringValue == "0.500")
    }

    @Test func wallTime() {
        let t0 = SampleRun.start
        #expect(JUnitMerge.wallTime([(t0, 2), (t0.addingTimeInterval(10), 3)]) == 13)
        #expect(JUnitMerge.wallTime([(t0, 5), (t0, 3)]) == 5)
        #expect(JUnitMerge.wallTime([(nil, 5), (t0, 7)]) == 7)
    }
}
