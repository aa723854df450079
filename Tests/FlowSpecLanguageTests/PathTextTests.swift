import Foundation
import Testing

@testable import FlowSpecLanguage

/// PathText answers as URL does where the loader and the checker used URL before.
@Suite struct PathTextTests {
    static let paths = [
        "flows", "flows/", "./flows", "flows/./rm/../rm/login.yaml", "/tmp//a/b/", "../x/y.yaml", "/",
        "a/../../b", ".", "scenarios/live/x.yml", "/work/main/flows/repairminder/login.yaml", "é/ü.yaml",
    ]

    @Test(arguments: paths) func standardizedIsURLsStandardizedPath(_ path: String) {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(
            PathText.standardized(path, workingDirectory: cwd) == URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    @Test(arguments: paths + ["login.yaml", "./login.yaml", "flows/.hidden.yaml", "flows/x.json", "a/b.c.yaml"])
    func folderAndStemAgreeWithURLWhenGiven(_ path: String) {
        // Shapes that need the working directory or Foundation's extension rules are left to URL (nil).
        guard let parts = PathText.folderAndStem(ofYAML: path) else { return }
        let url = URL(fileURLWithPath: path)
        #expect(String(parts.folder) == url.deletingLastPathComponent().lastPathComponent)
        #expect(String(parts.stem) == url.deletingPathExtension().lastPathComponent)
    }

    @Test func aFlowFileGivesItsFolderAndStem() throws {
        let parts = try #require(PathText.folderAndStem(ofYAML: "flows/repairminder/staff-login.yaml"))
        #expect(parts.folder == "repairminder" && parts.stem == "staff-login")
        #expect(PathText.folderAndStem(ofYAML: "login.yaml") == nil)
        #expect(PathText.folderAndStem(ofYAML: "flows/x.json") == nil)
    }
}
