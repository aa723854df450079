import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct HTMLReportEndToEndTests {
    @Test func shippedRepairMinderSuiteWritesASelfContainedReport() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("report.html")
        let result = try await FlowSpecBinary.run(["run", "scenarios/repairminder", "--report", "html=\(file.path)"])
        #expect(result.status == 0 || result.status == 1, "\(result.all)")
        let html = try String(contentsOf: file, encoding: .utf8)

        // Self-contained: nothing to fetch. URLs may appear as text (a response body with an avatar URL), never
        // as something the page loads: outside bodies, header values and request URLs there are none.
        for forbidden in ["<script src", "<link", "<img", "<iframe", "@import", "url(", "src=", "href=\"http"] {
            #expect(!html.contains(forbidden), "found \(forbidden)")
        }
        let markup = html.replacingOccurrences(of: "<pre[^>]*>[^<]*</pre>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "<td>[^<]*</td>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "<span class=\"url\">[^<]*</span>", with: "", options: .regularExpression)
        #expect(!markup.contains("http://") && !markup.contains("https://"))
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))

        // One section per scenario, and the header's summary agrees with the console.
        let scenarioFiles = try FileManager.default.contentsOfDirectory(
            atPath: FlowSpecBinary.root.appendingPathComponent("scenarios/repairminder").path
        )
        .filter { $0.hasSuffix(".yaml") }
        let sections = html.components(separatedBy: "<details class=\"scenario ").dropFirst()
        #expect(sections.count >= scenarioFiles.count)
        let summary = try #require(result.all.split(separator: "\n").last { $0.contains(" passed, ") })
        let counts = summary.split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
        #expect(counts.reduce(0, +) == sections.count, "\(summary)")

        // Every scenario that ran shows its flow diagram(s) with a highlighted path, and no flow is missing.
        for section in sections {
            let name =
                section.components(separatedBy: "<span class=\"name\">").dropFirst().first?.components(
                    separatedBy: "</span>"
                ).first ?? "?"
            guard !section.hasPrefix("status-skipped") else { continue }
            #expect(section.contains("<svg class=\"fs-diagram fs-has-path\""), "no diagram for \(name)")
            let runs = section.components(separatedBy: "class=\"run ").count - 1
            let diagrams = section.components(separatedBy: "<svg class=\"fs-diagram").count - 1
            #expect(runs == diagrams, "\(name): \(runs) runs, \(diagrams) diagrams")
        }
        #expect(!html.contains("No diagram:"))
        // Requests are there, masked: the suite's passwords never appear.
        #expect(html.contains("<details class=\"exchange "))
        #expect(!html.contains("correct-horse"))
    }
}
