import Testing
@testable import FlowSpecReports

@Suite(.timeLimit(.minutes(5))) struct ReportRequestTests {
    @Test func parsesKindsAndFiles() throws {
        #expect(try ReportRequest.parse("junit=out/j.xml").get() == ReportRequest(kind: .junit, path: "out/j.xml"))
        #expect(try ReportRequest.parse("tap").get() == ReportRequest(kind: .tap, path: nil))
        #expect(try ReportRequest.parse("json=-").get() == ReportRequest(kind: .json, path: nil))
        #expect(try ReportRequest.parse("TAP=t.tap").get() == ReportRequest(kind: .tap, path: "t.tap"))
    }

    @Test func explainsMistakes() {
        guard case .failure(let unknown) = ReportRequest.parse("junitt=x.xml") else { Issue.record("accepted junitt"); return }
        #expect(unknown.description.contains("unknown report `junitt`"))
        guard case .failure(let noFile) = ReportRequest.parse("html") else { Issue.record("accepted html to stdout"); return }
        #expect(noFile.description.contains("--report html=report.html"))
        guard case .failure(let empty) = ReportRequest.parse("json=") else { Issue.record("accepted an empty file"); return }
        #expect(empty.description.contains("no file after `=`"))
    }
}
