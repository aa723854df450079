import Foundation
import Testing

/// Green means something was checked and held: a probe whose login failed is an ERROR with its cause, not a skip;
/// a probe or scenario run in which everything was skipped exits 1 and says so; and the embedded sandbox starts
/// only for flows whose backend the run does not name.
@Suite(.timeLimit(.minutes(5))) struct NothingCheckedEndToEndTests {
    /// A wrong password: every probe that needs the login could not be made. That is a failed precondition — exit 1,
    /// each verdict ERROR with the login's outcome — where it used to be "skipped" and exit 0.
    @Test func aProbeWhoseLoginFailsIsAnErrorNotASkip() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("probe.json").path, junit = dir.appendingPathComponent("probe.xml").path
        try await SandboxProcess.with { sandbox in
            let result = try await FlowSpecBinary.run([
                "probe", "flows/traveling", "--vars-file", sandbox.varsFile.path,
                "--var", "traveling_password=not-the-password-1",
                "--report", "json=\(json)", "--report", "junit=\(junit)",
            ])
            #expect(result.status == 1, "\(result.all)")
            #expect(
                result.stdout.contains("ERROR    signature — not checked: could not log in with traveling.login"),
                "\(result.stdout)")
            #expect(!result.stdout.contains("  skipped  signature"), "\(result.stdout)")
            #expect(
                result.stdout.range(of: #"0 held, 0 broken, [1-9]\d* errors?,"#, options: .regularExpression) != nil,
                "\(result.stdout)")
            #expect(!result.all.contains("not-the-password-1"), "the password is masked")
        }
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Int])
        #expect((summary["error"] ?? 0) > 0 && summary["skipped"] == 0, "\(summary)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<error message=\"not checked: could not log in with traveling.login"), "\(xml)")
    }

    /// The embedded sandbox's tokens live 15 minutes, longer than a probe may wait by default: the only probe asked
    /// for is skipped everywhere, so the run checked nothing and is not green.
    @Test func aProbeRunThatCheckedNothingIsNotGreen() async throws {
        let result = try await FlowSpecBinary.run(["probe", "flows/repairminder", "--probe", "expiry"])
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.contains("0 held, 0 broken, 0 errors"), "\(result.stdout)")
        #expect(
            result.stderr.contains("nothing was checked: every probe was skipped or not applicable"), "\(result.stderr)"
        )
    }

    /// A flow of the user's own, whose base URL a variables file gives: the run has a backend, so no sandbox starts
    /// (it used to, because the file named none of the sandbox's variables). Nothing listens there: exit 3.
    @Test func theSandboxDoesNotStartForARunWithABackendOfItsOwn() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows"), withIntermediateDirectories: true)
        try """
        flow: own.ping
        defaults:
          base_url: "${vars.api_url}"
        start: ping
        states:
          ping:
            request: { method: GET, path: /ping }
            on:
              - when: status == 200
                goto: up
          up: { end: up, success: true }
        """.write(to: dir.appendingPathComponent("flows/ping.yaml"), atomically: true, encoding: .utf8)
        try "scenario: own backend answers\nlive: true\nflow: own.ping\nexpect: { outcome: up }\n"
            .write(to: dir.appendingPathComponent("ping.yaml"), atomically: true, encoding: .utf8)
        try "api_url: http://127.0.0.1:9\n".write(
            to: dir.appendingPathComponent("vars.yaml"), atomically: true, encoding: .utf8)
        let result = try await FlowSpecBinary.run(
            ["run", "ping.yaml", "--flows", "flows", "--vars-file", "vars.yaml"], in: dir)
        #expect(!result.stderr.contains("sandbox"), "\(result.stderr)")
        #expect(result.status == 3, "\(result.all)")
    }

    /// A run that points one of the shipped URLs at a backend gets no sandbox for the others: one report never mixes
    /// answers from staging with answers from the sandbox. The scenario whose URL is not given is skipped, naming it.
    @Test func aRunNamingOneBackendGetsNoSandboxForTheOthers() async throws {
        let result = try await FlowSpecBinary.run([
            "run", "scenarios/live/traveling-envelopes.yaml", "scenarios/live/legacy-login-envelope.yaml",
            "--var", "traveling_url=http://127.0.0.1:9",
        ])
        #expect(!result.stderr.contains("sandbox"), "\(result.stderr)")
        #expect(
            result.stdout.contains("needs the variable") && result.stdout.contains("legacy_url"), "\(result.stdout)")
        // Both are skipped (the traveling account is not given either): nothing was checked, so not green.
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stderr.contains("nothing was checked"), "\(result.stderr)")
    }

    /// With no variables, the shipped scenario's flows name the sandbox's variable: it starts, and says why.
    @Test func theSandboxSaysWhyItStarted() async throws {
        let result = try await FlowSpecBinary.run(["run", "scenarios/live/traveling-envelopes.yaml"])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stderr.contains("started the embedded sandbox at http://127.0.0.1:"), "\(result.stderr)")
        #expect(
            result.stderr.contains("because no backend was given for traveling_url, which the flows' base URLs read"),
            "\(result.stderr)")
    }
}
