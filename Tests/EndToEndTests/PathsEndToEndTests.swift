import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct PathsEndToEndTests {
    static var shippedFlowFiles: [String] {
        let flows = FlowSpecBinary.root.appendingPathComponent("flows")
        let enumerator = FileManager.default.enumerator(atPath: flows.path)
        var out: [String] = []
        while let item = enumerator?.nextObject() as? String {
            guard item.hasSuffix(".yaml") else { continue }
            let path = "flows/" + item
            let text =
                (try? String(contentsOf: FlowSpecBinary.root.appendingPathComponent(path), encoding: .utf8)) ?? ""
            if text.hasPrefix("flow:") || text.contains("\nflow:") { out.append(path) }
        }
        return out.sorted()
    }

    /// A small project whose guards are all simple, so every skeleton can be derived completely.
    static func demoProject() throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        let flows = dir.appendingPathComponent("flows/demo")
        try FileManager.default.createDirectory(at: flows, withIntermediateDirectories: true)
        try """
        session: demo.session
        namespace: demo
        headers:
          Authorization: "Bearer ${store.access_token}"
        """.write(to: flows.appendingPathComponent("session.yaml"), atomically: true, encoding: .utf8)
        try """
        flow: demo.login
        namespace: demo
        inputs:
          email: { type: email }
          code: { type: code, pattern: "^[0-9]{6}$", secret: true }
        defaults:
          base_url: "${vars.demo_url}"
          headers: { apikey: "${vars.demo_key}" }
        variables:
          tries: 0
        start: check
        states:
          check:
            choice:
              - when: exists(store.access_token)
                goto: me
              - else: true
                goto: login
          login:
            request: { method: POST, path: /login, json: { email: "${inputs.email}" } }
            on:
              - when: status == 200 && body.next == "code"
                set: { user: body.user.id }
                goto: ask_code
              - when: status == 403 && headers["x-reason"] == "locked"
                goto: locked
              - when: status >= 400
                goto: rejected
            unreachable: offline
          ask_code: { input: code, goto: verify, invalid: rejected }
          verify:
            request: { method: POST, path: "/users/${user}/verify", json: { code: "${inputs.code}" } }
            on:
              - when: status == 200 && exists(body.token)
                store: { access_token: body.token, expires_at: now + body.expiresIn }
                goto: me
              - when: status == 401 && tries < 2
                set: { tries: tries + 1 }
                goto: ask_code
              - else: true
                goto: rejected
          me:
            request: { method: GET, path: /me }
            session: demo.session
            on:
              - when: status == 200 && body.active == true
                goto: ok
              - else: true
                forget: all
                goto: rejected
          ok: { end: ok, success: true }
          rejected: { end: rejected, success: false }
          locked: { end: locked, success: false }
          offline: { end: offline, success: false }
        """.write(to: flows.appendingPathComponent("login.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func everyShippedFlowListsItsPathsAsTextAndJSON() async throws {
        let files = Self.shippedFlowFiles
        #expect(files.count > 20)
        for file in files {
            let result = try await FlowSpecBinary.run(["paths", file, "--format", "json"])
            #expect(result.status == 0, "\(file): \(result.all)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(file)")
            #expect(json["schema"] as? String == "flowspec-paths")
            let paths = try #require(json["paths"] as? [[String: Any]])
            #expect(!paths.isEmpty, "\(file)")
            for path in paths {
                #expect(
                    path["ends"] is String && path["edges"] is [Any] && path["inputs"] is [Any]
                        && path["success"] is Bool, "\(file)")
            }
        }
        let text = try await FlowSpecBinary.run(["paths", "repairminder.staff-password-2fa"])
        #expect(text.status == 0)
        #expect(
            text.stdout.hasPrefix(
                "flow repairminder.staff-password-2fa (flows/repairminder/staff-password-2fa.yaml): 8 paths\n"))
        #expect(
            text.stdout.contains(
                "1. to end `authenticated` (success) — 5 states\n   login → request_code → ask_code → verify → authenticated\n"
            ))
        #expect(text.stdout.contains("--unreachable-->  flows/repairminder/staff-password-2fa.yaml:"))
    }

    @Test func outputIsStableAcrossRuns() async throws {
        let a = try await FlowSpecBinary.run(["paths", "supabase.phone-otp", "--format", "json"])
        let b = try await FlowSpecBinary.run(["paths", "supabase.phone-otp", "--format", "json"])
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
    }

    @Test func scaffoldsOfShippedFlowsLoadAndTheCompleteOnesPass() async throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for flow in [
            "repairminder.staff-password-2fa", "repairminder.me", "repairminder.restore-session", "supabase.phone-otp",
            "traveling.login",
        ] {
            let result = try await FlowSpecBinary.run(["paths", flow, "--scaffold", dir.path])
            #expect(result.status == 0, "\(flow): \(result.all)")
            #expect(result.stderr.contains("scenario skeleton"))
        }
        let check = try await FlowSpecBinary.run(["check", dir.path, "--flows", "flows"])
        #expect(check.status == 0, "\(check.all)")
        #expect(check.stdout.contains(" 0 errors"))

        let run = try await FlowSpecBinary.run(["run", dir.path, "--flows", "flows"])
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        var complete = 0
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            guard !text.contains("Open TODOs") else { continue }
            complete += 1
            #expect(
                run.stdout.contains("PASS ")
                    && run.stdout.range(of: "PASS .*\\(\(dir.path)/\(file)", options: .regularExpression) != nil,
                "\(file) has no TODOs but did not pass:\n\(run.stdout)")
        }
        #expect(complete >= 10, "only \(complete) of \(files.count) skeletons were complete")
    }

    @Test func aFlowWithSimpleGuardsScaffoldsScenariosThatAllPass() async throws {
        let project = try Self.demoProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let listed = try await FlowSpecBinary.run(["paths", "demo.login"], in: project)
        #expect(listed.status == 0, "\(listed.all)")
        let out = project.appendingPathComponent("scenarios/generated")
        let result = try await FlowSpecBinary.run(["paths", "demo.login", "--scaffold", out.path], in: project)
        #expect(result.status == 0, "\(result.all)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files.first == "demo-login-01-ok.yaml")
        #expect(files.count >= 8)
        #expect(files.contains("demo-login-03-locked.yaml"))
        #expect(
            result.stderr.contains(
                "wrote \(files.count) scenario skeletons to \(out.path): \(files.count) derived completely, 0 with TODOs"
            ))
        let check = try await FlowSpecBinary.run(["check", "flows", "scenarios"], in: project)
        #expect(check.status == 0, "\(check.all)")
        let run = try await FlowSpecBinary.run(["run", "scenarios"], in: project)
        #expect(run.status == 0, "\(run.all)")
        #expect(run.stdout.hasSuffix("\(files.count) passed, 0 failed\n"), "\(run.stdout)")
    }

    @Test func scaffoldNeverOverwritesWithoutForce() async throws {
        let project = try Self.demoProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let out = project.appendingPathComponent("out").path
        #expect(try await FlowSpecBinary.run(["paths", "demo.login", "--scaffold", out], in: project).status == 0)
        let first = out + "/demo-login-01-ok.yaml"
        try "# mine\n".write(toFile: first, atomically: true, encoding: .utf8)
        let again = try await FlowSpecBinary.run(["paths", "demo.login", "--scaffold", out], in: project)
        #expect(again.status == 2)
        #expect(again.stderr.contains("not overwriting"))
        #expect(again.stderr.contains(first))
        #expect(again.stderr.contains("--force"))
        #expect(try String(contentsOfFile: first, encoding: .utf8) == "# mine\n")
        let forced = try await FlowSpecBinary.run(["paths", "demo.login", "--scaffold", out, "--force"], in: project)
        #expect(forced.status == 0, "\(forced.all)")
        #expect(try String(contentsOfFile: first, encoding: .utf8).hasPrefix("# Scaffolded by"))

        let lone = try await FlowSpecBinary.run(["paths", "demo.login", "--force"], in: project)
        #expect(lone.status == 2, "--force without --scaffold is a usage error, not ignored: \(lone.all)")
        #expect(lone.stderr.contains("--force only applies with --scaffold DIR"), "\(lone.stderr)")
        #expect(lone.stdout.isEmpty)
    }

    @Test func unknownFlowsAndBrokenSpecsExit2() async throws {
        let unknown = try await FlowSpecBinary.run(["paths", "repairminder.staff-pasword-2fa"])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.contains(
                "unknown flow `repairminder.staff-pasword-2fa`; did you mean `repairminder.staff-password-2fa`?"))

        let project = try Self.demoProject()
        defer { try? FileManager.default.removeItem(at: project) }
        try "flow: demo.broken\nstart: nowhere\nstates:\n  a: { end: a, success: true }\n"
            .write(to: project.appendingPathComponent("flows/demo/broken.yaml"), atomically: true, encoding: .utf8)
        let broken = try await FlowSpecBinary.run(["paths", "demo.login"], in: project)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("flows/demo/broken.yaml:2:"))
        #expect(broken.stdout.isEmpty)
    }
}
