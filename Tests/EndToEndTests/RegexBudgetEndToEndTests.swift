import Foundation
import Testing

/// A backtracking pattern against text from a backend or a user ends in a located error within the regex
/// budget, through the CLI: `matches()` in a guard, and an input's `pattern:` checked by `exec`.
@Suite(.timeLimit(.minutes(5))) struct RegexBudgetEndToEndTests {
    static let flow = """
        flow: rx.check
        inputs:
          name: { type: string, pattern: "((a*)*)*b" }
        defaults:
          base_url: "http://127.0.0.1:9"
        start: ask
        states:
          ask:
            input: name
            goto: fetch
          fetch:
            request: { method: GET, path: /me }
            session: none
            on:
              - when: matches(body.name, "((a*)*)*b")
                goto: ok
              - else: true
                goto: no
          ok:
            end: ok
            success: true
          no:
            end: no
            success: false

        """

    func folder() throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/rx"), withIntermediateDirectories: true)
        try Data(Self.flow.utf8).write(to: dir.appendingPathComponent("flows/rx/check.yaml"))
        return dir
    }

    @Test func matchesOnABackendValueGivesUpWithALocatedError() async throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let value = String(repeating: "a", count: 40)
        try Data(
            """
            scenario: a backtracking pattern gives up
            flow: rx.check
            inputs: { name: b }
            exchanges:
              - request: { method: GET, path: /me }
                response: { status: 200, json: { name: "\(value)" } }
            expect:
              outcome: no

            """.utf8
        ).write(to: dir.appendingPathComponent("slow.yaml"))
        let started = Date()
        let result = try await FlowSpecBinary.run(["run", "--flows", "flows", "slow.yaml"], in: dir)
        // Without the budget a 40-character match takes years; the bound leaves room for a loaded CI machine.
        #expect(Date().timeIntervalSince(started) < 120)
        #expect(result.status == 1, "\(result.all)")
        #expect(
            result.stdout.contains(
                "flows/rx/check.yaml:15:34: `matches` gave up: matching the pattern ((a*)*)*b against a 40-character text"
            ),
            "\(result.all)")
    }

    @Test func anInputPatternCheckedByExecGivesUpAndExitsTwo() async throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let value = String(repeating: "a", count: 41)
        let started = Date()
        let result = try await FlowSpecBinary.run(
            ["exec", "--flows", "flows", "rx.check", "--input", "name=\(value)"], in: dir)
        #expect(Date().timeIntervalSince(started) < 120)
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.all.contains(
                "`name` could not be checked: matching the pattern ((a*)*)*b against a 41-character text"),
            "\(result.all)")
        #expect(!result.all.contains(value), "the value itself is not echoed")
    }
}
