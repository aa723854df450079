import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct GraphEndToEndTests {
    /// Every shipped flow file (files with a top-level `flow:` key; sessions are not drawn).
    static var shippedFlowFiles: [String] {
        let folder = FlowSpecBinary.root.appendingPathComponent("flows")
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".yaml"),
                let data = FileManager.default.contents(atPath: folder.appendingPathComponent(relative).path),
                String(decoding: data, as: UTF8.self).split(separator: "\n").contains(where: { $0.hasPrefix("flow:") })
            else { continue }
            files.append("flows/" + relative)
        }
        return files.sorted()
    }

    /// Graphviz, when this machine has it.
    static let dot = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// A hand-written flowspec-report v1: one scenario types a wrong code, then the right one.
    static let report = """
        {
          "schema": "flowspec-report", "version": 1,
          "tool": {"name": "flowspec", "version": "0.1.0"},
          "startedAt": "2026-11-21T10:00:00Z", "durationSeconds": 0.75,
          "summary": {"total": 2, "passed": 2, "failed": 0, "skipped": 0},
          "scenarios": [
            {
              "name": "wrong code, then the right one", "file": "scenarios/x.yaml", "tags": ["smoke"], "status": "passed",
              "repetition": null, "durationSeconds": 0.001, "infrastructureFailure": false, "failures": [], "skipReason": null,
              "runs": [
                {"id": 0, "flow": "repairminder.staff-password-2fa", "parent": null, "outcome": "authenticated", "success": true,
                 "visits": [{"state": "login", "edge": 0, "falseGuards": []}, {"state": "request_code", "edge": 0, "falseGuards": []},
                            {"state": "ask_code", "edge": 0, "falseGuards": []}, {"state": "verify", "edge": 2, "falseGuards": [0, 1]},
                            {"state": "ask_code", "edge": 0, "falseGuards": []}, {"state": "verify", "edge": 0, "falseGuards": []},
                            {"state": "authenticated", "edge": null, "falseGuards": []}]}
              ],
              "exchanges": []
            },
            {
              "name": "me", "file": "scenarios/me.yaml", "tags": [], "status": "passed",
              "repetition": null, "durationSeconds": 0.001, "infrastructureFailure": false, "failures": [], "skipReason": null,
              "runs": [{"id": 0, "flow": "repairminder.me", "parent": null, "outcome": "ok", "success": true, "visits": []}],
              "exchanges": []
            }
          ]
        }
        """

    static func writeReport(_ text: String = report) throws -> String {
        let path = try FlowSpecBinary.temporaryDirectory().appendingPathComponent("report.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func drawsTheStaffLoginFromTheShippedFlows() async throws {
        let result = try await FlowSpecBinary.run(["graph", "repairminder.staff-password-2fa"])
        #expect(result.status == 0, "\(result.all)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(2) == ["%% flow repairminder.staff-password-2fa, drawn by flowspec graph", "flowchart TD"])
        #expect(lines.contains("    s_login[\"login<br/>POST /api/auth/login\"]"))
        #expect(lines.contains("    s_ask_code[/\"ask_code<br/>input code\"/]"))
        #expect(lines.contains("    start --> s_login"))
        #expect(
            lines.contains(
                "    s_login -->|\"(status #gt;= 200 #amp;#amp; status #lt; 300) #amp;#amp; body.requiresTwoFactor == true\"| s_request_code"
            ))
        #expect(lines.contains("    s_login -.->|\"unreachable\"| s_offline"))
        #expect(lines.contains("    class s_authenticated success"))
        #expect(result.stdout.hasSuffix("\n"))
        #expect(result.stderr.isEmpty)

        let dot = try await FlowSpecBinary.run(["graph", "repairminder.staff-password-2fa", "--format", "dot"])
        #expect(dot.status == 0, "\(dot.all)")
        #expect(dot.stdout.contains("digraph \"repairminder.staff-password-2fa\" {\n"))
        #expect(dot.stdout.contains("  \"login\" -> \"rejected\" [label=\"status == 400 || status == 401\"];\n"))
    }

    @Test(arguments: shippedFlowFiles)
    func everyShippedFlowRendersInBothFormats(file: String) async throws {
        #expect(Self.shippedFlowFiles.count >= 40)
        let mermaid = try await FlowSpecBinary.run(["graph", file])
        #expect(mermaid.status == 0, "\(mermaid.all)")
        #expect(mermaid.stdout.contains("\nflowchart TD\n    start((\"start\"))\n"))
        let dot = try await FlowSpecBinary.run(["graph", file, "--format", "dot"])
        #expect(dot.status == 0, "\(dot.all)")
        #expect(dot.stdout.hasSuffix("}\n"))
        if let graphviz = Self.dot {
            // Proof the DOT is valid: Graphviz renders it.
            let folder = try FlowSpecBinary.temporaryDirectory()
            let input = folder.appendingPathComponent("flow.dot")
            try Data(dot.stdout.utf8).write(to: input)
            let output = folder.appendingPathComponent("flow.svg").path
            let status = try await BlockingWork.run {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: graphviz)
                process.arguments = ["-Tsvg", "-o", output, input.path]
                try FlowSpecBinary.start(process)
                process.waitUntilExit()
                return process.terminationStatus
            }
            #expect(status == 0, "dot rejected the output for \(file)")
        }
    }

    @Test func anUnknownFlowSuggestsTheClosestName() async throws {
        let result = try await FlowSpecBinary.run(["graph", "repairminder.staff-pasword-2fa"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "error: unknown flow `repairminder.staff-pasword-2fa`; did you mean `repairminder.staff-password-2fa`?"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aFlowWithErrorsPrintsThemAndExits2() async throws {
        let folder = try FlowSpecBinary.temporaryDirectory().appendingPathComponent("flows")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(
            """
            flow: t.broken
            start: a
            states:
              a: { end: done, success: true, goto: nowhere }
            """.utf8
        ).write(to: folder.appendingPathComponent("broken.yaml"))
        let result = try await FlowSpecBinary.run(["graph", "t.broken", "--flows", folder.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("broken.yaml:4:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func traceHighlightsThePathTheReportTook() async throws {
        let report = try Self.writeReport()
        let result = try await FlowSpecBinary.run(["graph", "repairminder.staff-password-2fa", "--trace", report])
        #expect(result.status == 0, "\(result.all)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("    s_ask_code -->|\"×2\"| s_verify"))
        #expect(lines.contains("    s_verify -->|\"status == 400 #124;#124; status == 401 ×1\"| s_ask_code"))
        #expect(lines.contains("    class s_login,s_request_code,s_ask_code,s_verify,s_authenticated traced"))
        #expect(lines.last == "    linkStyle 0,1,5,6,10,12 stroke:#1f6feb,stroke-width:3px")

        let dot = try await FlowSpecBinary.run([
            "graph", "repairminder.staff-password-2fa", "--format", "dot", "--trace", report,
            "--scenario", "wrong code, then the right one",
        ])
        #expect(dot.status == 0, "\(dot.all)")
        #expect(
            dot.stdout.contains(
                "  \"ask_code\" -> \"verify\" [label=\"×2\", color=\"#1f6feb\", fontcolor=\"#1f6feb\", penwidth=3];\n"))
    }

    @Test func aReportThatNeverRanTheFlowWarnsAndDrawsThePlainGraph() async throws {
        let report = try Self.writeReport()
        let plain = try await FlowSpecBinary.run(["graph", "repairminder.logout"])
        let traced = try await FlowSpecBinary.run(["graph", "repairminder.logout", "--trace", report])
        #expect(traced.status == 0)
        #expect(traced.stdout == plain.stdout)
        #expect(
            traced.stderr.contains("warning: \(report) has no run of flow `repairminder.logout`"), "\(traced.stderr)")
    }

    @Test func badReportsAndScenariosExit2WithTheReason() async throws {
        let notJSON = try Self.writeReport("<html>")
        let result = try await FlowSpecBinary.run(["graph", "repairminder.me", "--trace", notJSON])
        #expect(result.status == 2)
        #expect(result.stderr.contains("not valid JSON"), "\(result.stderr)")

        let v2 = try Self.writeReport(#"{"schema": "flowspec-report", "version": 2, "scenarios": []}"#)
        let version = try await FlowSpecBinary.run(["graph", "repairminder.me", "--trace", v2])
        #expect(version.status == 2)
        #expect(version.stderr.contains("report version 2 is not supported"), "\(version.stderr)")

        let missing = try await FlowSpecBinary.run(["graph", "repairminder.me", "--trace", "/nonexistent/report.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read /nonexistent/report.json"), "\(missing.stderr)")

        let scenario = try await FlowSpecBinary.run([
            "graph", "repairminder.me", "--trace", try Self.writeReport(), "--scenario", "mee",
        ])
        #expect(scenario.status == 2)
        #expect(scenario.stderr.contains("has no scenario named \"mee\"; did you mean `me`?"), "\(scenario.stderr)")

        let noTrace = try await FlowSpecBinary.run(["graph", "repairminder.me", "--scenario", "me"])
        #expect(noTrace.status == 2)
        #expect(noTrace.stderr.contains("--scenario picks runs from a report"), "\(noTrace.stderr)")
    }

    @Test func theExampleInTheDocsIsTheRealOutput() async throws {
        let docs = String(
            decoding: FileManager.default.contents(
                atPath: FlowSpecBinary.root.appendingPathComponent("docs/graphs.md").path) ?? Data(), as: UTF8.self)
        let marker = "<!-- flowspec graph repairminder.staff-password-2fa -->\n```mermaid\n"
        let start = try #require(docs.range(of: marker))
        let end = try #require(docs.range(of: "```\n", range: start.upperBound..<docs.endIndex))
        let example = String(docs[start.upperBound..<end.lowerBound])
        #expect(example == (try await FlowSpecBinary.run(["graph", "repairminder.staff-password-2fa"])).stdout)
    }

    @Test func outputFileIsWrittenInsteadOfStandardOutput() async throws {
        let path = try FlowSpecBinary.temporaryDirectory().appendingPathComponent("login.dot").path
        let result = try await FlowSpecBinary.run([
            "graph", "flows/repairminder/staff-password-2fa.yaml", "--format", "dot", "-o", path,
        ])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.isEmpty)
        let written = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        #expect(
            written
                == (try await FlowSpecBinary.run(["graph", "repairminder.staff-password-2fa", "--format", "dot"]))
                .stdout)
    }
}
