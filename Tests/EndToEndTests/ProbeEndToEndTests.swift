import Foundation
import Testing

/// `flowspec probe` through the built binary: everything holds on the healthy sandbox (embedded, as a newcomer
/// runs it), and each broken promise is reported BROKEN with exit 1 by the probe that checks it.
@Suite(.timeLimit(.minutes(5))) struct ProbeEndToEndTests {
    /// As a newcomer runs it: no variables, so the embedded sandbox (the Repair Minder files, to keep it quick:
    /// Supabase's one-code-per-minute interval makes its probes wait).
    @Test func theRepairMinderProbesHoldOnTheEmbeddedSandbox() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("probe.json").path
        let result = try await FlowSpecBinary.run(["probe", "flows/repairminder", "--report", "json=\(report)"])
        #expect(result.status == 0, "\(result.all)")
        for line in [
            "held     rotation", "held     reuse_detection · family revoked", "held     logout_revokes",
            "held     signature · unsigned token (alg: none)", "held     garbage · no token at all",
            "held     isolation · a token of repairminder.customer",
            "held     isolation · a token of repairminder.staff",
            "held     atomic_rotation", "held     one_time_codes",
        ] {
            #expect(result.stdout.contains(line), "missing `\(line)` in:\n\(result.stdout)")
        }
        #expect(
            result.stdout.contains("skipped  expiry — not checked: the expiry probe would wait"), "\(result.stdout)")
        #expect(!result.stdout.contains("BROKEN"), "\(result.stdout)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect(json["schema"] as? String == "flowspec-probe")
        let summary = try #require(json["summary"] as? [String: Int])
        #expect(summary["broken"] == 0 && (summary["held"] ?? 0) >= 20, "\(summary)")
    }

    /// Every shipped probe file against a sandbox with short lifetimes: expiry is checked too, and everything holds.
    @Test func everyProbeHoldsOnTheHealthySandboxWithShortLifetimes() async throws {
        try await SandboxProcess.with(arguments: ["--accounts", "scenarios/live/sandbox-fast-probe.json"]) { sandbox in
            let result = try await FlowSpecBinary.run(["probe", "--vars-file", sandbox.varsFile.path])
            #expect(result.status == 0, "\(result.all)")
            for session in ["repairminder.staff", "supabase.session", "traveling.session"] {
                #expect(result.stdout.contains("probe \(session)\n"), "\(result.stdout)")
            }
            #expect(
                result.stdout.components(separatedBy: "held     expiry · past its exp").count == 4, "\(result.stdout)")
            #expect(!result.stdout.contains("BROKEN") && !result.stdout.contains("  skipped  "), "\(result.stdout)")
        }
    }

    /// Through the CLI, one break per probe family (every break the probes must catch is run in-process by
    /// LiveSuiteTests/ProbeTeethTests). Only expiry needs short lifetimes; the rest run at real ones, so a loaded
    /// machine cannot let a token expire under a forgery.
    @Test(arguments: [
        ("accepts-tampered-token", "signature · altered signature", "signature"),
        ("no-refresh-rotation", "rotation", "rotation"),
        ("no-reuse-detection", "reuse_detection · rotated-out token", "reuse_detection"),
        ("family-survives-reuse", "reuse_detection · family revoked", "reuse_detection"),
        ("logout-keeps-session", "logout_revokes", "logout_revokes"),
        ("codes-reusable", "one_time_codes", "one_time_codes"),
        ("role-confusion", "isolation · a token of repairminder.customer", "isolation"),
        ("accepts-expired-token", "expiry · past its exp", "expiry"),
        ("long-access-lifetime", "lifetime · access token", "lifetime"),
        ("no-code-attempt-limit", "attempt_limits · wrong codes", "attempt_limits"),
        ("code-survives-new-login", "one_time_codes · in a new login", "one_time_codes"),
        ("refresh-garbage-crashes", "garbage · truncated refresh token", "garbage"),
        ("notes-any-owner", "cross_user · repairminder.note-read", "cross_user"),
        ("two-factor-optional", "second_factor · repairminder.staff-password-2fa", "second_factor"),
        ("customer-enumeration", "enumeration", "enumeration"),
    ])
    func aBrokenPromiseIsReportedBroken(_ brokenPromise: String, _ line: String, _ kind: String) async throws {
        let accounts = kind == "expiry" ? ["--accounts", "scenarios/live/sandbox-fast-probe.json"] : []
        try await SandboxProcess.with(arguments: ["--break", brokenPromise] + accounts) { sandbox in
            let result = try await FlowSpecBinary.run([
                "probe", "flows/repairminder", "--probe", kind, "--vars-file", sandbox.varsFile.path,
            ])
            #expect(result.status == 1, "\(brokenPromise): \(result.all)")
            #expect(
                result.stdout.contains("BROKEN   \(line)"), "\(brokenPromise) not caught by \(line):\n\(result.stdout)")
            #expect(result.stdout.contains("           promise: "), "\(result.stdout)")
            // The evidence is masked: no token or code from the run is printed.
            #expect(!result.stdout.contains("eyJ"), "\(result.stdout)")
        }
    }

    /// `--reproduce` writes the broken promise as a flow and a live scenario: it fails on the broken backend
    /// and passes on a healthy one.
    @Test func aReproductionFailsWhereTheProbeBrokeAndPassesWhereItHolds() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let repro = dir.appendingPathComponent("repro").path
        try await SandboxProcess.with(arguments: ["--break", "logout-keeps-session"]) { sandbox in
            let junit = dir.appendingPathComponent("probe.xml").path
            let probe = try await FlowSpecBinary.run([
                "probe", "flows/repairminder", "--vars-file", sandbox.varsFile.path, "--probe", "logout_revokes",
                "--reproduce", repro, "--report", "junit=\(junit)",
            ])
            #expect(probe.status == 1, "\(probe.all)")
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(
                xml.contains(#"<testsuites name="flowspec probe" tests="3" failures="1" errors="0" skipped="2">"#),
                "\(xml)")
            #expect(xml.contains(#"<failure message="the refresh token still works after logout">"#), "\(xml)")
            #expect(
                probe.stdout.contains(
                    "reproduction of repairminder.staff logout_revokes: \(repro)/repairminder-staff-logout-revokes.yaml"
                ), "\(probe.stdout)")
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(run.status == 1, "\(run.all)")
        }
        try await SandboxProcess.with { sandbox in
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(run.status == 0, "\(run.all)")
            #expect(run.stdout.contains("1 passed, 0 failed"), "\(run.stdout)")
        }
    }

    /// With access tokens shorter-lived than the session's refresh margin, a logout through the session would refresh
    /// first, and the old refresh token be refused as rotated-out: the reproduction logs out without the session,
    /// as the probe does, so it still fails on the backend that keeps the session.
    @Test func aLogoutReproductionHoldsItsVerdictWithShortLivedTokens() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let repro = dir.appendingPathComponent("repro").path
        let fast = ["--accounts", "scenarios/live/sandbox-fast-probe.json"]
        try await SandboxProcess.with(arguments: ["--break", "logout-keeps-session"] + fast) { sandbox in
            let probe = try await FlowSpecBinary.run([
                "probe", "flows/repairminder", "--vars-file", sandbox.varsFile.path, "--probe", "logout_revokes",
                "--reproduce", repro,
            ])
            #expect(probe.status == 1, "\(probe.all)")
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(
                run.status == 1 && run.stdout.contains("got `broken` — the refresh token still worked after logout"),
                "\(run.all)")
        }
        try await SandboxProcess.with(arguments: fast) { sandbox in
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(run.status == 0, "\(run.all)")
        }
    }

    /// Forged tokens and another role's token are written with `forge_jwt()` and the other session's login: the
    /// reproductions fail on the backends that accept them and pass on a healthy one.
    @Test func forgedAndForeignTokenReproductionsFailWhereTheProbeBrokeAndPassWhereItHolds() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let repro = dir.appendingPathComponent("repro").path
        try await SandboxProcess.with(arguments: ["--break", "accepts-unsigned-token", "--break", "role-confusion"]) {
            sandbox in
            let probe = try await FlowSpecBinary.run([
                "probe", "flows/repairminder", "--vars-file", sandbox.varsFile.path, "--probe", "signature",
                "--probe", "isolation", "--reproduce", repro,
            ])
            #expect(probe.status == 1, "\(probe.all)")
            #expect(!probe.stdout.contains("no reproduction"), "\(probe.stdout)")
            let flows = try FileManager.default.contentsOfDirectory(atPath: repro + "/probe").sorted()
            #expect(
                flows == [
                    "repairminder-customer-signature-unsigned-token-alg-none.yaml",
                    "repairminder-staff-isolation-a-token-of-repairminder-customer.yaml",
                    "repairminder-staff-signature-unsigned-token-alg-none.yaml",
                ], "\(flows)")
            let forged = try String(
                contentsOfFile: repro + "/probe/repairminder-staff-signature-unsigned-token-alg-none.yaml",
                encoding: .utf8)
            #expect(forged.contains(#"forge_jwt(store.access_token, \"unsigned\")"#), "\(forged)")
            #expect(!forged.contains("eyJ"), "no token from the run is written")
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(run.status == 1, "\(run.all)")
            #expect(run.stdout.contains("0 passed, 3 failed"), "\(run.stdout)")
        }
        try await SandboxProcess.with { sandbox in
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(run.status == 0, "\(run.all)")
            #expect(run.stdout.contains("3 passed, 0 failed"), "\(run.stdout)")
        }
    }

    /// A replayed code is written as a copy of the login flow that sends the redeeming request twice.
    @Test func aCodeReplayReproductionCopiesTheLoginFlow() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let repro = dir.appendingPathComponent("repro").path
        try await SandboxProcess.with(arguments: ["--break", "codes-reusable"]) { sandbox in
            let probe = try await FlowSpecBinary.run([
                "probe", "flows/repairminder/staff-probe.yaml", "--vars-file", sandbox.varsFile.path, "--probe",
                "one_time_codes",
                "--reproduce", repro,
            ])
            #expect(probe.status == 1, "\(probe.all)")
            #expect(
                probe.stdout.contains(
                    "reproduction of repairminder.staff one_time_codes · replayed at once: \(repro)/repairminder-staff-one-time-codes-replayed-at-once.yaml"
                ), "\(probe.stdout)")
            let check = try await FlowSpecBinary.run(["check", "flows", repro + "/probe"])
            #expect(check.status == 0 && check.all.contains("0 errors, 0 warnings"), "\(check.all)")
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(run.status == 1, "\(run.all)")
            #expect(
                run.stdout.contains("got `broken` — the request that redeemed the code was accepted again"),
                "\(run.stdout)")
        }
        try await SandboxProcess.with { sandbox in
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(run.status == 0, "\(run.all)")
            #expect(run.stdout.contains("1 passed, 0 failed"), "\(run.stdout)")
        }
    }

    /// The concurrent burst is written as a login step and `parallel:` copies of the refresh request, held to
    /// `at_most: { accepted: 1 }`.
    @Test func aBurstReproductionCountsTheAcceptedCopies() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let repro = dir.appendingPathComponent("repro").path
        try await SandboxProcess.with(arguments: ["--break", "non-atomic-rotation"]) { sandbox in
            let probe = try await FlowSpecBinary.run([
                "probe", "flows/repairminder", "--vars-file", sandbox.varsFile.path, "--probe", "atomic_rotation",
                "--reproduce", repro,
            ])
            #expect(probe.status == 1, "\(probe.all)")
            let flows = try FileManager.default.contentsOfDirectory(atPath: repro + "/probe").sorted()
            #expect(
                flows == ["repairminder-staff-atomic-rotation-burst.yaml", "repairminder-staff-atomic-rotation.yaml"],
                "\(flows)")
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(run.status == 1, "\(run.all)")
            #expect(
                run.stdout.contains(
                    "step 2 (probe.repairminder-staff-atomic-rotation-burst): 5 of 5 copies ended `accepted`; at most 1 may"
                ), "\(run.stdout)")
        }
        try await SandboxProcess.with { sandbox in
            let run = try await FlowSpecBinary.run([
                "run", repro, "--flows", "flows", "--vars-file", sandbox.varsFile.path,
            ])
            #expect(run.status == 0, "\(run.all)")
            #expect(run.stdout.contains("1 passed, 0 failed"), "\(run.stdout)")
        }
    }

    /// Nothing listening: the login's `unreachable:` branch ends it, but the probes were not made — exit 3.
    @Test func aBackendThatDoesNotAnswerIsExitThreeNotAPass() async throws {
        let result = try await FlowSpecBinary.run([
            "probe", "flows/traveling", "--no-sandbox", "--var", "traveling_url=http://127.0.0.1:9",
            "--var", "traveling_email=qa@example.com", "--var", "traveling_password=not-a-secret-here",
        ])
        #expect(result.status == 3, "\(result.all)")
        #expect(
            result.stdout.contains("ERROR    signature — not checked: could not log in with traveling.login"),
            "\(result.stdout)")
        #expect(!result.all.contains("not-a-secret-here"), "the password is masked")
    }

    @Test func aMistakeInAProbeFileIsALocatedError() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad-probe.yaml")
        try Data(
            "probe: repairminder.staff\nlogin: { flow: repairminder.staff-password-2fa }\nprotected: [repairminder.mee]\npromises:\n  rotaton: x\n"
                .utf8
        ).write(to: file)
        let result = try await FlowSpecBinary.run(["probe", "--flows", "flows", file.path])
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.stderr.contains("bad-probe.yaml:3:13: error: unknown flow `repairminder.mee`"), "\(result.stderr)")
        #expect(result.stderr.contains("bad-probe.yaml:5:3: error: unknown promise `rotaton`"), "\(result.stderr)")
    }
}
