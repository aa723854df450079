import Foundation
import Testing

/// List functions through the CLI: a flow whose `when:` looks for an element of a list, run by `flowspec run` on
/// scripted responses, and a 1 MB list counted within a scenario's run.
@Suite(.timeLimit(.minutes(5))) struct ListFunctionsEndToEndTests {
    static let flow = """
        flow: app.login
        start: login
        states:
          login:
            request: { method: POST, path: /login, json: { email: qa@example.com } }
            on:
              - when: status == 401 && any(body.data.flows, it.id == "mfa_authenticate")
                set:
                  methods: first(body.data.flows, it.id == "mfa_authenticate").types
                  pending: map(filter(body.data.flows, it.is_pending), it.id)
                goto: second_factor
              - when: status == 200 && count(body.items, it % 2 == 0) == 50000
                goto: counted
              - else: true
                goto: rejected
          second_factor: { end: needs_second_factor, success: true }
          counted: { end: counted, success: true }
          rejected: { end: rejected, success: false }
        """

    static func scenario(_ name: String, status: Int, json: String, expect: String) -> String {
        """
        scenario: \(name)
        flow: app.login
        exchanges:
          - request: { method: POST, path: /login }
            response: { status: \(status), json: \(json) }
        expect: \(expect)
        """
    }

    static func folder(_ scenarios: [String: String]) throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/app"), withIntermediateDirectories: true)
        try flow.write(to: dir.appendingPathComponent("flows/app/login.yaml"), atomically: true, encoding: .utf8)
        for (file, text) in scenarios {
            try text.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test func aWhenFindsAnElementOfAList() async throws {
        let flows =
            #"{ data: { flows: [ { id: login, is_pending: false }, { id: mfa_authenticate, is_pending: true, types: [totp, recovery_codes] } ] } }"#
        let dir = try Self.folder([
            "found.yaml": Self.scenario(
                "the pending step is found", status: 401, json: flows,
                expect:
                    "{ outcome: needs_second_factor, variables: { methods: [totp, recovery_codes], pending: [mfa_authenticate] } }"
            ),
            "absent.yaml": Self.scenario(
                "no such step", status: 401, json: #"{ data: { flows: [ { id: login } ] } }"#,
                expect: "{ outcome: rejected }"),
            "missing.yaml": Self.scenario(
                "no list at all", status: 401, json: #"{ error: nope }"#, expect: "{ outcome: rejected }"),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(
            ["run", "found.yaml", "absent.yaml", "missing.yaml", "--flows", "flows"], in: dir)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.contains("3 passed"), "\(result.stdout)")

        // The same flow, expecting the opposite, fails: the list functions decide the path.
        let other = try Self.folder([
            "absent.yaml": Self.scenario(
                "no such step", status: 401, json: #"{ data: { flows: [ { id: login } ] } }"#,
                expect: "{ outcome: needs_second_factor }")
        ])
        defer { try? FileManager.default.removeItem(at: other) }
        let wrong = try await FlowSpecBinary.run(["run", "absent.yaml", "--flows", "flows"], in: other)
        #expect(wrong.status == 1, "\(wrong.all)")
    }

    /// A body of 100,000 numbers (about 600 KB of JSON) is counted in the run, well within the time limit.
    @Test func aLargeListIsCountedQuickly() async throws {
        let numbers = (0..<100_000).map(String.init).joined(separator: ",")
        let dir = try Self.folder([
            "large.yaml": Self.scenario(
                "a large list", status: 200, json: "{ items: [\(numbers)] }", expect: "{ outcome: counted }")
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let started = ContinuousClock.now
        let result = try await FlowSpecBinary.run(
            ["run", "large.yaml", "--flows", "flows", "--timeout", "60"], in: dir)
        #expect(result.status == 0, "\(result.all)")
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func aMistakeIsALocatedLoadError() async throws {
        let dir = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.flow.replacingOccurrences(
            of: #"it.id == "mfa_authenticate")"#, with: "it.id)", options: [], range: nil
        )
        .replacingOccurrences(of: "count(body.items, it % 2 == 0)", with: "count(body.items, it % 2)")
        .write(to: dir.appendingPathComponent("flows/app/login.yaml"), atomically: true, encoding: .utf8)
        let result = try await FlowSpecBinary.run(["check", "flows"], in: dir)
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.stdout.contains(
                "flows/app/login.yaml:12:53: error: `count` needs a condition on each element (true or false), but its second argument is a number"
            ), "\(result.stdout)")
    }
}
