import Foundation
import Testing

/// ARCHITECTURE.md's code map, enforced: what each module must never import. A module that starts importing
/// what the map forbids fails here, naming the file; change the map (and say why) or move the code.
@Suite(.timeLimit(.minutes(5))) struct ArchitectureTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    static let network = ["AsyncHTTPClient", "NIO", "Hummingbird"]

    /// Module → prefixes of modules it must never import.
    static let forbidden: [String: [String]] = [
        "FlowSpecLanguage": ["FlowSpec"] + network,
        "FlowSpecLoading": [
            "FlowSpecRuntime", "FlowSpecScenarios", "FlowSpecProbe", "FlowSpecReports", "FlowSpecHTTP",
            "FlowSpecSandbox",
            "FlowSpecDiagrams", "FlowSpecScaffold",
        ] + network,
        "FlowSpecRuntime": [
            "FlowSpecLoading", "FlowSpecScenarios", "FlowSpecProbe", "FlowSpecReports", "FlowSpecHTTP",
            "FlowSpecSandbox",
            "FlowSpecDiagrams", "FlowSpecScaffold",
        ] + network,
        "FlowSpecScenarios": [
            "FlowSpecProbe", "FlowSpecReports", "FlowSpecHTTP", "FlowSpecSandbox", "FlowSpecDiagrams",
            "FlowSpecScaffold",
        ] + network,
        "FlowSpecSandbox": ["FlowSpec", "AsyncHTTPClient"],
        "FlowSpecDiagrams": [
            "FlowSpecRuntime", "FlowSpecScenarios", "FlowSpecProbe", "FlowSpecReports", "FlowSpecHTTP",
            "FlowSpecSandbox", "FlowSpecScaffold", "Foundation",
        ] + network,
        "FlowSpecScaffold": [
            "FlowSpecRuntime", "FlowSpecScenarios", "FlowSpecProbe", "FlowSpecReports", "FlowSpecHTTP",
            "FlowSpecSandbox",
        ] + network,
        "FlowSpecProbe": ["FlowSpecReports", "FlowSpecHTTP", "FlowSpecSandbox", "FlowSpecDiagrams", "FlowSpecScaffold"]
            + network,
        "FlowSpecReports": ["FlowSpecHTTP", "FlowSpecSandbox", "FlowSpecScaffold"] + network,
        "FlowSpecHTTP": ["FlowSpecScenarios", "FlowSpecProbe", "FlowSpecReports", "FlowSpecSandbox", "Hummingbird"],
        "FlowSpecFuzzing": ["FlowSpecHTTP", "FlowSpecDiagrams", "FlowSpecScaffold"] + network,
    ]

    static func imports(of module: String) throws -> [(file: String, module: String)] {
        let folder = sources.appendingPathComponent(module)
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var out: [(String, String)] = []
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                    words[..<at].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal"].contains($0) })
                else { continue }
                out.append(("\(module)/\(file)", String(words[at + 1])))
            }
        }
        return out
    }

    @Test(arguments: forbidden.keys.sorted())
    func moduleImportsOnlyWhatTheMapAllows(module: String) throws {
        let found = try Self.imports(of: module)
        #expect(!found.isEmpty, "no Swift files found for \(module) under \(Self.sources.path)")
        for (file, imported) in found {
            for prefix in Self.forbidden[module]! where imported.hasPrefix(prefix) && imported != module {
                Issue.record("\(file) imports \(imported); ARCHITECTURE.md says \(module) must never import \(prefix)")
            }
        }
    }

    /// The language is the pure core: it never touches the file system. Files are found and read by the loading
    /// layer (`FlowSpecLoading`), which hands the language parsed documents.
    @Test func theLanguageReadsNoFiles() throws {
        let folder = Self.sources.appendingPathComponent("FlowSpecLanguage")
        let calls = [
            "FileManager", "opendir", "readdir", "fopen", "contentsOfFile", "Data(contentsOf", "String(contentsOf",
            "stat(", "getcwd", "FileHandle",
        ]
        let files = try #require(FileManager.default.enumerator(atPath: folder.path))
        var read = 0
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            read += 1
            for call in calls where text.contains(call) {
                Issue.record("FlowSpecLanguage/\(file) uses \(call); reading files belongs in FlowSpecLoading")
            }
        }
        #expect(read > 50, "found only \(read) Swift files under \(folder.path)")
    }

    /// AsyncHTTPClient is confined to the live HTTP module.
    @Test func onlyTheHTTPModuleImportsAsyncHTTPClient() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter {
            $0 != "FlowSpecHTTP"
        }
        for module in modules {
            for (file, imported) in try Self.imports(of: module) where imported == "AsyncHTTPClient" {
                Issue.record("\(file) imports AsyncHTTPClient; only FlowSpecHTTP may (ARCHITECTURE.md)")
            }
        }
    }

    /// Everything is `package` but the fuzz harness's entry points, which the separate fuzz package calls; and no
    /// module of the tool uses the harness.
    @Test func onlyTheFuzzHarnessIsPublic() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        var read = 0
        for module in modules where module != "FlowSpecFuzzing" {
            let folder = Self.sources.appendingPathComponent(module)
            let files = try #require(FileManager.default.enumerator(atPath: folder.path))
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                read += 1
                for line in text.split(separator: "\n")
                where line.split(separator: " ").first(where: { !$0.hasPrefix("@") }) == "public" {
                    Issue.record(
                        "\(module)/\(file) declares `\(line.trimmingCharacters(in: .whitespaces))`: use `package`")
                }
            }
            for (file, imported) in try Self.imports(of: module) where imported == "FlowSpecFuzzing" {
                Issue.record("\(file) imports the fuzz harness, which only the fuzz package may use")
            }
        }
        #expect(read > 300, "found only \(read) Swift files under \(Self.sources.path)")
    }
}
