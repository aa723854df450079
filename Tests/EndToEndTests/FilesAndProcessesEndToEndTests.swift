import FlowSpecRuntime
import Foundation
import TestSupport
import Testing

/// The files a user owns and the processes flowspec starts, through the built binary: the token store is private and
/// locked while a run uses it, reports go into FIFOs and devices rather than replacing them, a command's daemon keeps
/// nobody waiting, and small mistakes on the command line get messages that say what to do.
@Suite(.timeLimit(.minutes(5))) struct FilesAndProcessesEndToEndTests {
    /// Flows that need no backend: a counter kept in the store (with a wait, so runs overlap) and an input.
    static func flowsFolder() throws -> URL {
        let directory = try FlowSpecBinary.temporaryDirectory()
        let demo = directory.appendingPathComponent("flows/demo")
        try FileManager.default.createDirectory(at: demo, withIntermediateDirectories: true)
        try """
        flow: demo.bump
        namespace: demo
        start: pause
        states:
          pause:
            wait: 1
            goto: bump
          bump:
            choice:
              - when: exists(store.count)
                store: { count: store.count + 1 }
                goto: done
              - else: true
                store: { count: 1 }
                goto: done
          done:
            end: done
            success: true

        """.write(to: demo.appendingPathComponent("bump.yaml"), atomically: true, encoding: .utf8)
        try """
        flow: demo.ask
        inputs:
          code: { type: string, prompt: "Code" }
        start: ask
        states:
          ask:
            input: code
            goto: done
          done:
            end: done
            success: true
            outputs: { code: inputs.code }

        """.write(to: demo.appendingPathComponent("ask.yaml"), atomically: true, encoding: .utf8)
        return directory
    }

    static func mode(_ path: String) -> Int {
        var info = stat()
        guard lstat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o7777)
    }

    static func storedCount(_ path: String) throws -> Double? {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        return (object?["demo"]?["count"] as? NSNumber)?.doubleValue
    }

    @Test func theStoreIsPrivateAndNothingIsLeftBeside() async throws {
        let directory = try Self.flowsFolder()
        let store = directory.appendingPathComponent("state/tokens.json").path
        try FileManager.default.createDirectory(
            atPath: directory.appendingPathComponent("state").path, withIntermediateDirectories: true)
        let result = try await FlowSpecBinary.run([
            "exec", "demo.bump", "--flows", directory.appendingPathComponent("flows").path, "--store", store,
        ])
        #expect(result.status == 0, "\(result.all)")
        #expect(Self.mode(store) == 0o600)
        #expect(Self.mode(store + ".lock") == 0o600)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("state").path)
            .sorted()
        #expect(left == ["tokens.json", "tokens.json.lock"])
    }

    /// `sandbox --write-vars` holds the sandbox's secrets: private from the start, like the store.
    @Test func theSandboxVariablesFileIsPrivate() async throws {
        try await SandboxProcess.with { sandbox in
            #expect(!sandbox.vars.isEmpty)
            #expect(Self.mode(sandbox.varsFile.path) == 0o600)
            let left = try FileManager.default.contentsOfDirectory(
                atPath: sandbox.varsFile.deletingLastPathComponent().path)
            #expect(left == ["sandbox-vars.yaml"])
        }
    }

    /// Three runs at once on one store: each starts from the one before it (all three used to read an empty store
    /// and save `count: 1`).
    @Test func concurrentRunsOnOneStoreKeepEveryUpdate() async throws {
        let directory = try Self.flowsFolder()
        let store = directory.appendingPathComponent("tokens.json").path
        let flows = directory.appendingPathComponent("flows").path
        let results = try await withThrowingTaskGroup(of: FlowSpecBinary.Output.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await FlowSpecBinary.run(["exec", "demo.bump", "--flows", flows, "--store", store])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results { #expect(result.status == 0, "\(result.all)") }
        #expect(try Self.storedCount(store) == 3)
    }

    /// Another process holds the store's lock past --store-wait: a clear error naming the lock file, exit 2.
    @Test func aStoreLockedTooLongIsAClearError() async throws {
        let directory = try Self.flowsFolder()
        let store = directory.appendingPathComponent("tokens.json").path
        let held = open(store + ".lock", O_RDWR | O_CREAT, 0o600)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        defer { close(held) }
        let result = try await FlowSpecBinary.run([
            "exec", "demo.bump", "--flows", directory.appendingPathComponent("flows").path,
            "--store", store, "--store-wait", "0.5",
        ])
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.stderr.contains(
                "error: the token store \(store) is in use: another process has held the lock \(store).lock for more than 0.5 s"
            ),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))

        let negative = try await FlowSpecBinary.run(["exec", "demo.bump", "--store", store, "--store-wait", "-1"])
        #expect(negative.status == 2)
        #expect(
            negative.stderr.contains("--store-wait must be a number of seconds from 0 to 86400"), "\(negative.stderr)")
    }

    /// `--report junit=FIFO` writes into the FIFO (a program reading it gets the report) and leaves it a FIFO.
    @Test func aReportGoesIntoAFIFOWithoutReplacingIt() async throws {
        let directory = try FlowSpecBinary.temporaryDirectory()
        let fifo = directory.appendingPathComponent("report.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = directory.appendingPathComponent("received").path
        // A reader, as `cat report.fifo` would be, started beside the run; bounded, since a FIFO that was replaced
        // by a regular file (as it was) never gets a writer.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "timeout 30 cat \"$0\" > \"$1\"", fifo, received]
        try reader.run()
        let result = try await FlowSpecBinary.run([
            "run", "scenarios/repairminder/customer-logout-without-token.yaml", "--report", "junit=\(fifo)",
        ])
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.all)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && FileKind(info.st_mode) == .fifo, "the FIFO was replaced")
        let report = try String(contentsOfFile: received, encoding: .utf8)
        #expect(report.hasPrefix("<?xml") && report.contains("<testsuite"), "\(report)")
    }

    /// `junit=/dev/stdout` writes into this process's standard output (here a pipe), after the console lines; the
    /// link `/dev/stdout` is not renamed over.
    @Test func aReportOnStandardOutputIsWrittenThere() async throws {
        let result = try await FlowSpecBinary.run([
            "run", "scenarios/repairminder/customer-logout-without-token.yaml", "--report", "junit=/dev/stdout",
        ])
        #expect(result.status == 0, "\(result.all)")
        let report = try #require(result.stdout.range(of: "<?xml"), "\(result.all)")
        #expect(result.stdout[report.lowerBound...].contains("</testsuites>"))
        var info = stat()
        #expect(lstat("/dev/stdout", &info) == 0 && FileKind(info.st_mode) == .symbolicLink)
    }

    /// `/dev/full` refuses every write: a clear error and a non-zero exit, and the device stays a device.
    @Test func aReportOnAFullDeviceIsAClearError() async throws {
        var info = stat()
        guard stat("/dev/full", &info) == 0, FileKind(info.st_mode) == .characterDevice else { return }
        let result = try await FlowSpecBinary.run([
            "run", "scenarios/repairminder/customer-logout-without-token.yaml", "--report", "junit=/dev/full",
        ])
        #expect(result.status == 3, "\(result.all)")
        #expect(
            result.stderr.contains(
                "--report junit: could not write /dev/full: writing failed: No space left on device"),
            "\(result.stderr)")
        #expect(lstat("/dev/full", &info) == 0 && FileKind(info.st_mode) == .characterDevice)
    }

    /// A code command that starts a daemon (`setsid … &`) ends when the command does, not when the daemon does.
    @Test func aCommandStartingADaemonEndsInTime() async throws {
        let directory = try Self.flowsFolder()
        let marker = "\(Int.random(in: 100_000...999_999))"
        defer { for pid in Self.processes(containing: marker) { kill(pid, SIGKILL) } }
        let start = ContinuousClock.now
        let result = try await FlowSpecBinary.run([
            "exec", "demo.ask", "--flows", directory.appendingPathComponent("flows").path,
            "--input-command", "code=setsid sleep 100.\(marker) & echo 4242",
        ])
        let elapsed = ContinuousClock.now - start
        #expect(result.status == 0, "\(result.all)")
        // The command's answer is a code: masked, like everything an input command fetches.
        #expect(result.stdout.contains("code: ••••"), "\(result.all)")
        // Loose (the whole suite runs at once on two cores), and still far below the daemon's 100 s.
        #expect(elapsed < .seconds(60), "waited \(elapsed) for the daemon")
    }

    /// A command printing without end fails the input at the output limit, saying so.
    @Test func aCommandPrintingWithoutEndFailsTheInput() async throws {
        let directory = try Self.flowsFolder()
        let result = try await FlowSpecBinary.run([
            "exec", "demo.ask", "--flows", directory.appendingPathComponent("flows").path,
            "--input-command", "code=yes",
        ])
        #expect(result.status != 0, "\(result.all)")
        #expect(result.all.contains("the command printed more than 1 MiB on its standard output"), "\(result.all)")
        #expect(result.all.count < 10_000)
    }

    @Test func jobsOutOfRangeNamesTheRange() async throws {
        let result = try await FlowSpecBinary.run(["run", "scenarios/repairminder", "--jobs", "-1"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("--jobs must be a whole number, 1 or more (how many scenarios run at once), got -1"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
    }

    /// `fixture_url: 8080` reads as a number: a located error in the vars file, exit 2 (it was sent as a URL: exit 3).
    @Test func aVarsFileURLThatIsANumberIsALocatedError() async throws {
        let directory = try FlowSpecBinary.temporaryDirectory()
        let vars = directory.appendingPathComponent("vars.yaml")
        try "fixture_url: 8080\n".write(to: vars, atomically: true, encoding: .utf8)
        let result = try await FlowSpecBinary.run([
            "exec", "Tests/EndToEndTests/Fixtures/flows/fixture/login.yaml", "--vars-file", vars.path,
            "--input", "email=qa@example.com", "--input", "password=pw", "--input", "code=123456",
        ])
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.stderr.contains("vars.yaml:1:14: error: variable `fixture_url` is a URL, found the number 8080"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains("hint: write the whole URL as text, e.g. `fixture_url: http://127.0.0.1:8080`"),
            "\(result.stderr)")
    }

    static func processes(containing text: String) -> [Int32] { Processes.containing(text) }
}
