import Foundation
import Testing

/// Colour and the progress line, which only a terminal gets: the binary runs on a pseudo-terminal.
@Suite(.timeLimit(.minutes(5))) struct TerminalEndToEndTests {
    static let escape = "\u{1B}["

    /// A one-state flow, a scripted scenario that passes, and a live one that takes `wait` seconds of real time.
    static func project(wait: String = "0s") throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        let flows = dir.appendingPathComponent("flows/t"), scenarios = dir.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: flows, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try """
        flow: t.noop
        start: done
        states:
          done: { end: done, success: true }
        """.write(to: flows.appendingPathComponent("noop.yaml"), atomically: true, encoding: .utf8)
        try """
        scenario: scripted noop
        flow: t.noop
        expect: { outcome: done }
        """.write(to: scenarios.appendingPathComponent("scripted.yaml"), atomically: true, encoding: .utf8)
        try """
        scenario: live noop after a wait
        live: true
        steps:
          - wait: \(wait)
          - run: t.noop
            expect: { outcome: done }
        """.write(to: scenarios.appendingPathComponent("live.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func aTerminalGetsColourAndPipedOutputDoesNot() async throws {
        let dir = try Self.project()
        let arguments = ["run", "scenarios", "--no-sandbox"]
        let onTerminal = try await FlowSpecBinary.runOnTerminal(arguments, in: dir)
        #expect(onTerminal.status == 0, "\(onTerminal.terminal)")
        #expect(
            onTerminal.terminal.contains("\(Self.escape)32mPASS\(Self.escape)0m  scripted noop"),
            "\(onTerminal.terminal)")
        #expect(
            onTerminal.terminal.hasSuffix("2 passed, 0 failed\n"),
            "the summary line keeps its shape: \(onTerminal.terminal)")

        // Piped, with neither NO_COLOR nor CI set: plain text.
        let piped = try await FlowSpecBinary.run(arguments, in: dir, removing: ["NO_COLOR", "CI"])
        #expect(piped.status == 0, "\(piped.all)")
        #expect(piped.stdout.contains("PASS  scripted noop"))
        #expect(!piped.all.contains(Self.escape), "\(piped.all)")
    }

    @Test func noColourWithNO_COLOROnATerminal() async throws {
        let dir = try Self.project()
        let result = try await FlowSpecBinary.runOnTerminal(
            ["run", "scenarios", "--no-sandbox"], in: dir, environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.terminal)")
        #expect(result.terminal.contains("PASS  scripted noop"))
        // No colour. (On a slow machine the run may last a second and draw the progress line, whose erase-line
        // escape is not colour: only SGR sequences count.)
        #expect(result.terminal.firstMatch(of: #/\x{1B}\[[0-9;]*m/#) == nil, "\(result.terminal)")
    }

    @Test func aRunOverASecondDrawsAProgressLineOnTheTerminalOnlyAndErasesIt() async throws {
        let dir = try Self.project(wait: "2s")
        let result = try await FlowSpecBinary.runOnTerminal(
            ["run", "scenarios", "--no-sandbox"], in: dir, pipeStandardOutput: true)
        #expect(result.status == 0, "\(result.terminal)\(result.piped)")
        // Drawn on standard error (the terminal) after a second: the counter of finished scenarios out of 2.
        let drawn = "\r\(Self.escape)K["
        #expect(result.terminal.contains(drawn), "no progress line: \(result.terminal.debugDescription)")
        #expect(
            result.terminal.range(of: #"\[[0-2]/2\] · [1-9]\d* s"#, options: .regularExpression) != nil,
            "\(result.terminal.debugDescription)")
        // Erased at the end, so the terminal is left clean.
        #expect(result.terminal.hasSuffix("\r\(Self.escape)K"), "\(result.terminal.debugDescription)")
        // Standard output, piped, gets the report lines and the summary only: no progress, no colour.
        #expect(!result.piped.contains(Self.escape), "\(result.piped.debugDescription)")
        #expect(result.piped.hasSuffix("2 passed, 0 failed\n"), "\(result.piped)")
    }

    @Test func noProgressLineWhenCIIsSetOrTheRunIsShort() async throws {
        let slow = try Self.project(wait: "2s")
        let onCI = try await FlowSpecBinary.runOnTerminal(
            ["run", "scenarios", "--no-sandbox"], in: slow, environment: ["CI": "true"],
            pipeStandardOutput: true)
        #expect(onCI.status == 0, "\(onCI.terminal)\(onCI.piped)")
        #expect(onCI.seconds >= 2)
        #expect(!onCI.terminal.contains("\r"), "\(onCI.terminal.debugDescription)")

        let quick = try Self.project()
        let short = try await FlowSpecBinary.runOnTerminal(
            ["run", "scenarios", "--no-sandbox"], in: quick, pipeStandardOutput: true)
        #expect(short.status == 0)
        // Only a run that really ended within the second can promise no line (a loaded machine may be slower).
        if short.seconds < 0.9 { #expect(!short.terminal.contains("\r"), "\(short.terminal.debugDescription)") }
    }
}
