import Foundation
import Testing

/// `flowspec sandbox`, `flowspec exec` and `flowspec run scenarios/live`, as a QA engineer runs them.
@Suite(.serialized, .timeLimit(.minutes(5))) struct LiveEndToEndTests {
    @Test func execLogsInWithAnEmailedCodeKeepsTheSessionInAStoreFileAndLogsOut() async throws {
        try await SandboxProcess.with { sandbox in
            let url = try #require(sandbox.vars["repairminder_url"])
            let dir = try FlowSpecBinary.temporaryDirectory()
            let store = dir.appendingPathComponent("tokens.json").path
            let password = try #require(sandbox.vars["staff_password"])

            let login = try await FlowSpecBinary.run([
                "exec", "repairminder.staff-password-2fa", "--base-url", url,
                "--input", "email=\(sandbox.vars["staff_email"]!)", "--input", "password=\(password)",
                "--input-command", "code=\(sandbox.vars["email_code_command"]!)", "--store", store,
            ])
            #expect(login.status == 0, "\(login.all)")
            #expect(login.stdout.contains("→ login\n→ request_code\n→ ask_code\n→ verify\n→ authenticated"))
            #expect(login.stdout.contains("authenticated (success)"))
            let attributes = try FileManager.default.attributesOfItem(atPath: store)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let saved = try String(contentsOfFile: store, encoding: .utf8)
            let tokens = try #require(JSONSerialization.jsonObject(with: Data(saved.utf8)) as? [String: [String: Any]])
            let access = try #require(tokens["staff"]?["access_token"] as? String)
            let refresh = try #require(tokens["staff"]?["refresh_token"] as? String)
            for secret in [password, access, refresh] { #expect(!login.all.contains(secret)) }

            let me = try await FlowSpecBinary.run([
                "exec", "repairminder.me", "--base-url", url, "--store", store, "--json",
            ])
            #expect(me.status == 0, "\(me.all)")
            let json = try #require(JSONSerialization.jsonObject(with: Data(me.stdout.utf8)) as? [String: Any])
            #expect(Set(json.keys) == ["flow", "outcome", "success", "skipped", "path", "outputs"])
            #expect(json["skipped"] as? Bool == false)
            #expect(json["outcome"] as? String == "ok")
            #expect(json["success"] as? Bool == true)
            #expect(json["path"] as? [String] == ["me", "ok"])
            for secret in [access, refresh] { #expect(!me.all.contains(secret)) }

            let logout = try await FlowSpecBinary.run([
                "exec", "repairminder.logout", "--base-url", url, "--store", store,
            ])
            #expect(logout.status == 0, "\(logout.all)")
            // The family is revoked and the store cleared: /me now ends in a failure state.
            let after = try await FlowSpecBinary.run(["exec", "repairminder.me", "--base-url", url, "--store", store])
            #expect(after.status == 1, "\(after.all)")
        }
    }

    @Test func execWithoutAnInputAndWithoutATerminalSaysWhichInputIsMissingAndExits2() async throws {
        let result = try await FlowSpecBinary.run([
            "exec", "repairminder.staff-password-2fa", "--base-url", "http://127.0.0.1:9", "--input",
            "email=qa@example.com",
        ])
        #expect(result.status == 2, "\(result.all)")
        #expect(result.all.contains("missing input `password`"))
        let unknown = try await FlowSpecBinary.run([
            "exec", "repairminder.staff-pasword-2fa", "--base-url", "http://127.0.0.1:9",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean `repairminder.staff-password-2fa`"))
        let badInput = try await FlowSpecBinary.run([
            "exec", "repairminder.me", "--base-url", "http://127.0.0.1:9", "--input", "emial=x",
        ])
        #expect(badInput.status == 2)
        #expect(badInput.stderr.contains("reads no input named `emial`"))
    }

    @Test func execAgainstNothingListeningIsAnInfrastructureErrorNamingTheURL() async throws {
        let result = try await FlowSpecBinary.run([
            "exec", "repairminder.staff-password-2fa", "--base-url", "http://127.0.0.1:9",
            "--input", "email=qa@example.com", "--input", "password=pw-123456",
        ])
        #expect(result.status == 3, "\(result.all)")
        #expect(result.all.contains("refused: http://127.0.0.1:9/api/auth/login"))
        #expect(!result.all.contains("pw-123456"))
    }

    @Test func theLiveSuitePassesAgainstASandboxAndFailsAgainstABrokenOne() async throws {
        let healthy = try await SandboxProcess.start()
        let passed = try await FlowSpecBinary.run(["run", "scenarios/live", "--vars-file", healthy.varsFile.path])
        #expect(try await healthy.stop() == 0)
        #expect(passed.status == 0, "\(passed.all)")
        // The two expiry scenarios cannot wait out 15-minute tokens in 60 s: skipped, never passed.
        #expect(
            passed.stdout.range(of: #"\n\d+ passed, 0 failed, 2 skipped\n$"#, options: .regularExpression) != nil,
            "\(passed.stdout.suffix(300))")
        #expect(!passed.all.contains(healthy.vars["staff_password"]!))

        let broken = try await SandboxProcess.start(arguments: ["--break", "codes-reusable"])
        let failed = try await FlowSpecBinary.run(["run", "scenarios/live", "--vars-file", broken.varsFile.path])
        _ = try await broken.stop()
        #expect(failed.status == 1, "\(failed.all)")
        #expect(failed.stdout.contains("FAIL"))
    }

    @Test func liveScenariosWithoutTheirVariablesAreSkippedNamingThem() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        let vars = dir.appendingPathComponent("vars.yaml")
        try "repairminder_url: http://127.0.0.1:9\n".write(to: vars, atomically: true, encoding: .utf8)
        let result = try await FlowSpecBinary.run([
            "run", "scenarios/live", "--vars-file", vars.path, "--filter", "staff",
        ])
        #expect(result.stdout.contains("SKIP"), "\(result.all)")
        #expect(result.stdout.contains("needs the variable"))
        #expect(result.stdout.contains("staff_email"))
        #expect(
            result.stdout.range(of: #"0 failed, \d+ skipped\n$"#, options: .regularExpression) != nil,
            "\(result.stdout.suffix(300))")
        // Every selected scenario was skipped, so nothing was checked: not green.
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stderr.contains("nothing was checked"), "\(result.stderr)")
        // The variables file names a backend for the flows it selects: no sandbox was started behind the user's back.
        #expect(!result.stderr.contains("embedded sandbox"), "\(result.stderr)")
    }

    @Test func aBadVariablesFileIsAClearErrorWithItsPosition() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        let vars = dir.appendingPathComponent("vars.yaml")
        try "repairminder_url: http://x\nstaff: [a, b]\n".write(to: vars, atomically: true, encoding: .utf8)
        let result = try await FlowSpecBinary.run(["run", "scenarios/live", "--vars-file", vars.path])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("vars.yaml:2:8: error: variable `staff` must be a single value"), "\(result.stderr)")
    }
}
