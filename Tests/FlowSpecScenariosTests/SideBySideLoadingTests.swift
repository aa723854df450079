import FlowSpecLoading
import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecScenarios

/// Files are read and decoded side by side, then joined in file order: what a folder loads to, which definition of a
/// name wins and the order of every message must be what loading them one by one gives, on every run.
@Suite(.timeLimit(.minutes(2))) struct SideBySideLoadingTests {
    static func flow(_ name: String, broken: Bool = false) -> String {
        """
        flow: \(name)
        start: go
        states:
          go:
            request: { method: GET, path: /x }
            on:
              - when: status == 200
                goto: \(broken ? "nowhere" : "done")
          done: { end: ok, success: true }
        """
    }

    static func scenario(_ name: String, flow: String) -> String {
        """
        scenario: \(name)
        flow: \(flow)
        exchanges:
          - request: { method: GET, path: /x }
            response: { status: 200 }
        expect: { outcome: ok }
        """
    }

    /// 60 files: flows, a flow defined twice, broken flows, a file that is not YAML, scenarios, a scenario name used twice.
    static func folder() throws -> (path: String, files: [String: String]) {
        var files: [String: String] = [:]
        for i in 0..<40 { files[String(format: "flows/f%02d.yaml", i)] = flow("demo.f\(i)", broken: i % 7 == 3) }
        files["flows/f41.yaml"] = flow("demo.f5")
        files["flows/f42.yaml"] = "flow: [unclosed"
        for i in 0..<18 {
            files[String(format: "scenarios/s%02d.yaml", i)] = scenario(i == 12 ? "s3" : "s\(i)", flow: "demo.f\(i)")
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flowspec-side-by-side-\(UUID().uuidString)")
        for (name, text) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return (root.path, files)
    }

    @Test func aFolderLoadsAsFileByFileDoes() throws {
        let (root, files) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }

        // One by one, in the sorted order the loader uses: the reference.
        let oneByOne = SpecSet(
            documents: files.keys.filter({ $0.hasPrefix("flows/") }).sorted().map { name in
                switch YAMLLoader.load(text: files[name]!, file: "\(root)/\(name)") {
                case .success(let node): SpecSet.decode(node, file: "\(root)/\(name)")
                case .failure(let diagnostic): SpecSet.Document(file: "\(root)/\(name)", failure: diagnostic)
                }
            })

        for _ in 0..<5 {
            let suite = SuiteLoader.load(paths: ["\(root)/scenarios"], flowsFolder: "\(root)/flows")
            let sideBySide = ProgramLoader.load(paths: ["\(root)/flows"]).program
            #expect(sideBySide.diagnostics.items.map(\.description) == oneByOne.diagnostics.items.map(\.description))
            #expect(sideBySide.files == oneByOne.files)
            #expect(Set(sideBySide.flows.keys) == Set(oneByOne.flows.keys))
            // The first definition of demo.f5 wins, the second is the error.
            #expect(sideBySide.flows["demo.f5"]?.file.hasSuffix("flows/f05.yaml") == true)
            #expect(
                sideBySide.diagnostics.items.contains {
                    $0.message.contains("`demo.f5` is already defined in") && $0.location.file.hasSuffix("f41.yaml")
                })

            #expect(suite.scenarios.map(\.name) == (0..<18).map { $0 == 12 ? "s3" : "s\($0)" })
            let duplicate = suite.diagnostics.items.filter { $0.message.contains("has the same name \"s3\"") }
            #expect(duplicate.count == 1)
            #expect(duplicate.first?.location.file.hasSuffix("s12.yaml") == true)
            #expect(duplicate.first?.message.contains("s03.yaml") == true)
        }
    }
}
