import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// Given values, then a command, then a prompt — and commands see the inputs handed out so far.
@Suite(.timeLimit(.minutes(6))) struct InputSourceTests {
    func decl(_ name: String, secret: Bool = false) -> InputDecl {
        InputDecl(
            name: name, kind: .string, pattern: nil, secret: secret, prompt: nil,
            location: SourceLocation(file: "t", line: 1, column: 1))
    }

    @Test func aCommandPrintsTheValueTrimmedAndSeesEarlierNonSecretInputs() async throws {
        let source = LayeredInputSource(
            values: ["email": ["qa@example.com"], "password": ["hunter2-secret"]],
            commands: ["code": #"printf '  %s|%s \n' "$email" "${password:-none}""#])
        #expect(try await source.current(decl("email"), flow: "f") == "qa@example.com")
        #expect(try await source.current(decl("password", secret: true), flow: "f") == "hunter2-secret")
        // The secret password is not exported to the command's environment.
        #expect(try await source.next(decl("code"), flow: "f") == "qa@example.com|none")
    }

    @Test func givenValuesWinOverCommandsAndAReAskRunsTheCommandAgain() async throws {
        let counter = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flowspec-counter-\(UUID().uuidString)"
        ).path
        let source = LayeredInputSource(
            values: ["code": ["111111"]],
            commands: ["code": "echo x >> \(counter); wc -l < \(counter) | tr -d ' '"])
        #expect(try await source.next(decl("code"), flow: "f") == "111111")
        #expect(try await source.next(decl("code"), flow: "f") == "1")
        #expect(try await source.current(decl("code"), flow: "f") == "1") // current repeats the last answer
        #expect(try await source.next(decl("code"), flow: "f") == "2")
    }

    @Test func aFailingSilentOrSlowCommandIsAClearError() async {
        let failing = LayeredInputSource(values: [:], commands: ["code": "echo 'no such mailbox' >&2; exit 7"])
        await #expect { try await failing.next(decl("code"), flow: "f") } throws: { error in
            "\(error)".contains("status 7") && "\(error)".contains("no such mailbox")
        }
        let silent = LayeredInputSource(values: [:], commands: ["code": "true"])
        await #expect { try await silent.next(decl("code"), flow: "f") } throws: { "\($0)".contains("printed nothing") }
        let slow = LayeredInputSource(values: [:], commands: ["code": "sleep 5; echo late"], commandTimeout: 0.3)
        await #expect { try await slow.next(decl("code"), flow: "f") } throws: { "\($0)".contains("did not finish") }
    }

    /// A scenario abandoned by --timeout is cancelled; its command (and the command's children) must die with it.
    @Test func cancellingKillsTheCommandAndItsChildren() async throws {
        let marker = "\(Int.random(in: 100_000...999_999))"
        let task = Task { try await ShellCommand("sleep 120.\(marker) & sleep 121.\(marker); echo late").run() }
        // Until the shell has started its children there is nothing to see. The command starts on a thread of its own,
        // so this waits on this thread too rather than on the (busy) cooperative pool. The task itself starts on that
        // pool, which the whole suite on two cores can hold for minutes: CI once saw it not start within 60 s.
        let deadline = Date().addingTimeInterval(240)
        while Self.processes(containing: marker).count < 2, Date() < deadline { usleep(20_000) }
        #expect(Self.processes(containing: marker).count >= 2, "the command never started")
        task.cancel()
        // The kill happens inside `cancel()` (the cancellation handler runs at once), so the command and its children
        // are gone within moments: checked on this thread without awaiting. Awaiting the task first measured the
        // whole suite's load instead — its tests hold both cooperative threads for up to 100 s on two cores.
        let killDeadline = Date().addingTimeInterval(10)
        while !Self.processes(containing: marker).isEmpty, Date() < killDeadline { usleep(20_000) }
        #expect(Self.processes(containing: marker) == [], "the command outlived its cancelled run (broken: its 120 s)")
        let result = await task.result
        #expect(throws: InputError.self) { try result.get() }
    }

    /// A finished command leaves no pipe open: they were once held until the timeout's deadline (30 s), two per
    /// command, and a suite fetching codes by shell reached 1,700 open pipes, where Foundation's `Process.run` crashes.
    @Test func aFinishedCommandLeavesNoPipeOpen() async throws {
        let before = Self.openPipes()
        for _ in 0..<300 { #expect(try await ShellCommand("echo 1").run() == "1") }
        // Other tests run alongside and open pipes of their own for moments; 300 commands that kept theirs hold 600.
        let grown = Self.openPipes() - before
        #expect(grown < 150, "\(grown) more pipes open after 300 finished commands")
    }

    /// Past the ceiling a command is refused with a reason, never started: starting it could crash flowspec.
    @Test func tooManyOpenDescriptorsIsAClearErrorNotACrash() async throws {
        let open = try #require(OpenDescriptors.count())
        #expect(open >= 3) // standard input, output and error at least
        await #expect { try await ShellCommand("echo started", descriptorCeiling: 2).run() } throws: { error in
            let text = "\(error)"
            return text.contains("cannot start the command") && text.contains("files and connections open")
                && text.contains("--jobs")
        }
        // Under the default ceiling it starts (the whole suite, run side by side, peaks near 900 descriptors).
        #expect(try await ShellCommand("echo 1").run() == "1")
    }

    static func openPipes() -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))?.hasPrefix("pipe:")
                == true
        }.count
    }

    static func processes(containing text: String) -> [Int32] { Processes.containing(text) }

    @Test func thePrompterIsAskedOnlyWhenNothingElseGivesAValue() async throws {
        struct Answer: InputPrompter {
            func ask(_ input: InputDecl, flow: String) async throws(InputError) -> String? { "typed-\(input.name)" }
        }
        let source = LayeredInputSource(values: ["email": ["a@b.co"]], commands: [:], prompter: Answer())
        #expect(try await source.current(decl("email"), flow: "f") == "a@b.co")
        #expect(try await source.next(decl("code"), flow: "f") == "typed-code")
        let none = LayeredInputSource(values: [:])
        #expect(try await none.next(decl("code"), flow: "f") == nil)
    }
}
