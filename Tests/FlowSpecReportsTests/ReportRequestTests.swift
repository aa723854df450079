import Testing

@testable import FlowSpecReports

@Suite(.timeLimit(.minutes(5))) struct ReportRequestTests {
    func request(_ name: String, _ path: String?) -> ReportRequest {
        ReportRequest(format: ReportFormats.named(name)!, path: path)
    }

    @Test func parsesKindsAndFiles() throws {
        #expect(try ReportRequest.parse("junit=out/j.xml").get() == request("junit", "out/j.xml"))
        #expect(try ReportRequest.parse("tap").get() == request("tap", nil))
        #expect(try ReportRequest.parse("json=-").get() == request("json", nil))
        #expect(try ReportRequest.parse("TAP=t.tap").get() == request("tap", "t.tap"))
        #expect(try ReportRequest.parse("coverage").get() == request("coverage", nil))
    }

    @Test func explainsMistakes() {
        guard case .failure(let unknown) = ReportRequest.parse("junitt=x.xml") else {
            Issue.record("accepted junitt"); return
        }
        #expect(unknown.description.contains("unknown report `junitt`"))
        #expect(unknown.description.contains("junit, json, tap, html, coverage"), "\(unknown)")
        guard case .failure(let noFile) = ReportRequest.parse("html") else {
            Issue.record("accepted html to stdout"); return
        }
        #expect(noFile.description.contains("--report html=report.html"))
        guard case .failure(let junit) = ReportRequest.parse("junit") else {
            Issue.record("accepted junit to stdout"); return
        }
        #expect(junit.description.contains("--report junit=junit.xml"))
        guard case .failure(let empty) = ReportRequest.parse("json=") else {
            Issue.record("accepted an empty file"); return
        }
        #expect(empty.description.contains("no file after `=`"))
    }

    /// A probe run has no coverage: the one list of formats says so, and the message names what a probe can write.
    @Test func aProbeRunOffersOnlyTheFormatsWithAProbeForm() {
        #expect(ReportFormats.probe.map(\.name) == ["junit", "json", "tap", "html"])
        guard case .failure(let coverage) = ReportRequest.parse("coverage=c.json", formats: ReportFormats.probe) else {
            Issue.record("a probe run accepted a coverage report"); return
        }
        #expect(
            coverage.description.contains("`coverage` is not available here; use one of junit, json, tap, html"),
            "\(coverage)")
        #expect((try? ReportRequest.parse("json", formats: ReportFormats.probe).get()) == request("json", nil))
    }

    @Test func findsConflictsBetweenRequests() {
        #expect(
            ReportRequest.conflict(in: [request("tap", nil), request("json", nil)])?.contains(
                "only one --report can go to standard output") == true)
        #expect(
            ReportRequest.conflict(in: [request("json", "r"), request("junit", "r")])
                == "two reports would write r; give each its own file")
        #expect(ReportRequest.conflict(in: [request("json", "r.json"), request("tap", nil)]) == nil)
        #expect(
            ReportRequest.missingFolder(in: [request("json", "no-such-folder-here/r.json")])?.contains(
                "the folder no-such-folder-here does not exist") == true)
        #expect(ReportRequest.missingFolder(in: [request("json", "r.json"), request("tap", nil)]) == nil)
    }

    /// The run records only what some requested format needs: exchanges and traces cost time.
    @Test func theRunRecordsWhatTheFormatsNeed() {
        #expect(ReportRequest.needs(of: [request("junit", "j.xml"), request("tap", nil)]) == [])
        #expect(ReportRequest.needs(of: [request("json", "r.json")]) == [.exchanges, .traces])
        #expect(ReportRequest.needs(of: [request("html", "r.html")]) == [.exchanges, .traces])
        #expect(ReportRequest.needs(of: [request("coverage", nil)]) == [.traces, .coverage])
    }
}
