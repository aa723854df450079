import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecProbe

/// `probe --reproduce DIR` writes through the library: what it says, and a folder it cannot make is a failure with
/// the path in its message, never a silent pass.
@Suite(.timeLimit(.minutes(5))) struct ReproductionFolderTests {
    func verdict(_ status: ProbeVerdict.Status) -> ProbeVerdict {
        ProbeVerdict(session: "s", kind: .rotation, check: "old refresh token", status: status, detail: "d", source: "")
    }

    func write(_ verdicts: [ProbeVerdict], into directory: String, say: (String) -> Void) throws {
        try ReproductionFolder.write(
            verdicts, [], into: directory, writer: ReproductionWriter(specs: SpecSet()), say: say)
    }

    @Test func nothingBrokenWritesNothing() throws {
        let directory = NSTemporaryDirectory() + "repro-\(UUID().uuidString)"
        var said: [String] = []
        try write([verdict(.held), verdict(.skipped)], into: directory) { said.append($0) }
        #expect(said.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory), "no folder is made for nothing to write")
    }

    @Test func aBrokenVerdictWithoutReproductionIsSaid() throws {
        let directory = NSTemporaryDirectory() + "repro-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var said: [String] = []
        try write([verdict(.broken)], into: directory) { said.append($0) }
        #expect(said.count == 2, "\(said)")
        #expect(said.first?.hasPrefix("no reproduction for s rotation · old refresh token:") == true, "\(said)")
        #expect(said.last == "run them with: flowspec run \(directory) --flows <your flows folder> [--vars-file …]")
        #expect(FileManager.default.fileExists(atPath: directory + "/probe"))
    }

    @Test func aFolderThatCannotBeMadeIsAFailure() throws {
        let file = NSTemporaryDirectory() + "repro-file-\(UUID().uuidString)"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect {
            try write([verdict(.broken)], into: file + "/inside") { _ in }
        } throws: { error in
            (error as? ReproductionFolder.Failure)?.message.hasPrefix("cannot create \(file)/inside/probe:") == true
        }
    }
}
