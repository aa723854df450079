import Foundation
import Synchronization
import Testing

@testable import FlowSpecRuntime

/// Files a user owns: a token store is private from the moment it exists, a failed or killed write leaves nothing
/// behind for long, and only regular files are replaced by a rename.
@Suite(.timeLimit(.minutes(2))) struct AtomicFileTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-atomic-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func mode(_ path: String) -> Int {
        var info = stat()
        guard lstat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o7777)
    }

    static func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// The store was created with the umask's permissions (0644) and chmod-ed to 0600 only afterwards: another user
    /// watching the folder could open it in between. Every file that appears in the folder is checked as it appears.
    @Test func aPrivateFileNeverExistsWithWiderPermissions() throws {
        let folder = try Self.folder()
        let target = folder + "/tokens.json"
        let seenWide = Mutex<Set<String>>([])
        let stop = Atomic(false)
        let watcher = Thread {
            while !stop.load(ordering: .relaxed) {
                for name in Self.entries(folder) {
                    let mode = Self.mode(folder + "/" + name)
                    if mode >= 0, mode & 0o077 != 0 {
                        seenWide.withLock { _ = $0.insert("\(name) \(String(mode, radix: 8))") }
                    }
                }
            }
        }
        watcher.start()
        let data = Data(repeating: 0x41, count: 2 << 20)
        for _ in 0..<40 { try AtomicFile.write(data, to: target, permissions: 0o600) }
        stop.store(true, ordering: .relaxed)
        #expect(seenWide.withLock { $0 }.isEmpty, "seen readable by others: \(seenWide.withLock { $0 })")
        #expect(Self.mode(target) == 0o600)
        #expect(Self.entries(folder) == ["tokens.json"])
    }

    /// A `kill -9` between creating the temporary file and renaming it leaves the file behind; the next write
    /// removes it once it is old enough not to be another process's write in progress.
    @Test func theNextWriteRemovesWhatAKilledWriteLeftBehind() throws {
        let folder = try Self.folder()
        let old = folder + "/.tokens.json.killed.tmp", fresh = folder + "/.tokens.json.in-progress.tmp"
        let other = folder + "/.report.xml.killed.tmp"
        for path in [old, fresh, other] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("secret".utf8)))
        }
        let longAgo = Date().addingTimeInterval(-10 * AtomicFile.staleSeconds)
        for path in [old, other] {
            try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: path)
        }
        try AtomicFile.write(Data("{}".utf8), to: folder + "/tokens.json", permissions: 0o600)
        // Only this target's leftovers, and only old ones.
        #expect(Self.entries(folder) == [".report.xml.killed.tmp", ".tokens.json.in-progress.tmp", "tokens.json"])
    }

    @Test func aWriteThatCannotHappenSaysWhyAndLeavesNothing() throws {
        let folder = try Self.folder()
        // A folder where the file should be: refused before anything is created.
        try FileManager.default.createDirectory(
            atPath: folder + "/tokens.json/inside", withIntermediateDirectories: true)
        #expect { try AtomicFile.write(Data("{}".utf8), to: folder + "/tokens.json", permissions: 0o600) } throws: {
            "\($0)".contains("it is a folder, not a regular file")
        }
        #expect(Self.entries(folder) == ["tokens.json"])
        let missing = folder + "/no-such-folder/tokens.json"
        #expect { try AtomicFile.write(Data("{}".utf8), to: missing) } throws: {
            "\($0)".contains("No such file or directory")
        }
    }

    /// A link is followed: the file it points to is replaced and the link stays a link.
    @Test func aSymbolicLinkStaysALink() throws {
        let folder = try Self.folder()
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/real/report.xml"))
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/report.xml", withDestinationPath: "real/report.xml")
        try AtomicFile.write(Data("new".utf8), to: folder + "/report.xml")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/report.xml") == "real/report.xml")
        #expect(FileManager.default.contents(atPath: folder + "/real/report.xml") == Data("new".utf8))
    }

    /// A FIFO is never replaced by a regular file: `AtomicFile` refuses it, `OutputFile` writes into it.
    @Test func aFIFOIsWrittenIntoNotReplaced() async throws {
        let folder = try Self.folder()
        let fifo = folder + "/report.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect { try AtomicFile.write(Data("x".utf8), to: fifo) } throws: {
            "\($0)".contains("a FIFO (named pipe), not a regular file")
        }

        let reader = Thread {
            // Opened without blocking, so a writer that never comes cannot hang the test.
            let fd = open(fifo, O_RDONLY | O_NONBLOCK)
            guard fd >= 0 else { return }
            var collected = Data(), buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let count = read(fd, &buffer, buffer.count)
                if count > 0 {
                    collected.append(contentsOf: buffer[..<count])
                } else if count == 0, !collected.isEmpty {
                    break
                } else {
                    usleep(5_000)
                }
            }
            close(fd)
            try? collected.write(to: URL(fileURLWithPath: folder + "/received"))
        }
        reader.start()
        let report = Data(String(repeating: "<testsuite/>\n", count: 20_000).utf8)
        try OutputFile.write(report, to: fifo)
        let deadline = Date().addingTimeInterval(20)
        while FileManager.default.contents(atPath: folder + "/received") == nil, Date() < deadline { usleep(10_000) }
        #expect(FileManager.default.contents(atPath: folder + "/received") == report)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && FileKind(info.st_mode) == .fifo)
        #expect(Self.entries(folder) == ["received", "report.fifo"])
    }

    /// Nothing reads the FIFO: a clear error within the wait, not a hang.
    @Test func aFIFONobodyReadsIsAnErrorNotAHang() throws {
        let folder = try Self.folder()
        let fifo = folder + "/report.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect { try OutputFile.write(Data("x".utf8), to: fifo, readerWaitSeconds: 0.2) } throws: {
            "\($0)".contains("no program opened the FIFO for reading")
        }
    }

    /// `/dev/full` fails every write with ENOSPC: the error says so, and the device stays a device.
    @Test func aDeviceThatRefusesTheWriteIsAClearError() throws {
        var info = stat()
        guard stat("/dev/full", &info) == 0, FileKind(info.st_mode) == .characterDevice else { return }
        #expect { try OutputFile.write(Data("report".utf8), to: "/dev/full") } throws: {
            "\($0)".contains("No space left on device")
        }
        #expect(lstat("/dev/full", &info) == 0 && FileKind(info.st_mode) == .characterDevice)
        try OutputFile.write(Data("report".utf8), to: "/dev/null")
        #expect(lstat("/dev/null", &info) == 0 && FileKind(info.st_mode) == .characterDevice)
    }
}
