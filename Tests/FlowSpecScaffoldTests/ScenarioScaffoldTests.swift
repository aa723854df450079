import FlowSpecDiagrams
import FlowSpecLanguage
import TestSupport
import Testing

@testable import FlowSpecScaffold

@Suite(.timeLimit(.minutes(5))) struct ScenarioScaffoldTests {
    // MARK: Quoting

    @Test func plainOnlyWhenNothingCanBeMisread() {
        #expect(ScaffoldYAML.string("authenticated") == "authenticated")
        #expect(ScaffoldYAML.string("/api/auth/login") == "/api/auth/login")
        #expect(ScaffoldYAML.string("qa@example.com") == "qa@example.com")
        for risky in [
            "yes", "No", "true", "null", "~", "on", "123456", "1.5", "+15555550100", "a: b", "x #y", "*ref",
            "&anchor", "!tag", "%x", "@at", "", " lead", "it's", "\"q\"", "[x]", "{x}", "a\nb", "-dash", "2024-01-01",
        ] {
            #expect(ScaffoldYAML.string(risky).hasPrefix("\""), "\(risky) must be quoted")
        }
        #expect(YAMLWriter.quoted("say \"hi\"\\\n") == #""say \"hi\"\\\n""#)
    }

    @Test func quotedValuesReadBackAsTheSameText() throws {
        let texts = [
            "yes", "123456", "+15555550100", "a: b # c", "*x", "tab\there", "quote \" and \\ slash", "ünïcode",
        ]
        var yaml = "flow: t.q\nstart: a\nstates:\n  a: { end: done, success: true }\nvariables:\n"
        for (i, t) in texts.enumerated() { yaml += "  v\(i): " + ScaffoldYAML.string(t) + "\n" }
        let specs = SpecSet(sources: ["q.yaml": yaml])
        let flow = try #require(specs.flows["t.q"])
        // Quoted values in `variables:` are text templates: each reads back as exactly the text written.
        for (i, t) in texts.enumerated() {
            let expr = try #require(flow.variables.first { $0.0 == "v\(i)" }?.1)
            #expect(ScaffoldWorld().evaluate(expr) == .string(t), "\(t)")
        }
    }

    @Test func flowStyleJSON() {
        let value: JSONValue = .object([
            "a": .object(["b": .string("x")]), "n": .number(5), "t": .bool(true), "s": .string("no"),
        ])
        // `n` is a YAML 1.1 boolean (like `y`), so even as a key it is quoted.
        #expect(ScaffoldYAML.flow(value) == #"{ a: { b: x }, "n": 5, s: "no", t: true }"#)
    }

    // MARK: Guard hints

    static func world(status: Int? = 200) -> ScaffoldWorld {
        var w = ScaffoldWorld()
        w.status = status
        return w
    }

    static func transitions(_ guards: [String?]) throws -> [Transition] {
        var yaml = "flow: t.g\nstart: r\nstates:\n  r:\n    request: { method: GET, path: /x }\n    on:\n"
        for g in guards {
            if let g {
                yaml += "      - when: \(YAMLWriter.quoted(g))\n        goto: e\n"
            } else {
                yaml += "      - else: true\n        goto: e\n"
            }
        }
        yaml += "  e: { end: e, success: true }\n"
        let specs = try TestSpecs.load(["g.yaml": yaml])
        return try #require(specs.flows["t.g"]?.states["r"]).transitions
    }

    static func response(_ guards: [String?], index: Int) throws -> ScaffoldWorld? {
        let ts = try transitions(guards)
        let isResponse: (HintFact) -> Bool = { fact in
            switch fact {
            case .status, .body, .header: true
            default: false
            }
        }
        guard let values = GuardHints.choose(ts, index: index, in: world(), isFree: isResponse) else { return nil }
        return GuardHints.apply(values, to: world())
    }

    @Test func statusComparisonsGiveThatStatus() throws {
        #expect(try Self.response(["status == 201"], index: 0)?.status == 201)
        #expect(try Self.response(["status >= 400"], index: 0)?.status == 400)
        #expect(try Self.response(["status > 499"], index: 0)?.status == 500)
        #expect(try Self.response(["status in [401, 403]"], index: 0)?.status == 401)
        #expect(try Self.response(["status == 400 || status == 401"], index: 0)?.status == 400)
    }

    @Test func bodyEqualitiesAndPresenceBuildTheBody() throws {
        let w = try #require(
            try Self.response(
                [
                    "status == 200 && body.user.role == \"staff\" && body.ok == true && body.n == 5 && exists(body.token) && body.id != null"
                ], index: 0))
        #expect(w.status == 200)
        #expect(w.body["user"]["role"] == .string("staff"))
        #expect(w.body["ok"] == .bool(true))
        #expect(w.body["n"] == .number(5))
        #expect(w.body["token"].isNull == false)
        #expect(w.body["id"].isNull == false)
        let h = try #require(try Self.response(["headers[\"x-sb-error-code\"] == \"otp_expired\""], index: 0))
        #expect(h.headers["x-sb-error-code"] == "otp_expired")
    }

    @Test func laterEdgesMakeEarlierGuardsFalse() throws {
        let guards: [String?] = [
            "status == 200 && body.requiresTwoFactor == true", "status == 200", "status == 401", nil,
        ]
        let second = try #require(try Self.response(guards, index: 1))
        #expect(second.status == 200)
        #expect(second.body["requiresTwoFactor"] != .bool(true))
        #expect(try Self.response(guards, index: 2)?.status == 401)
        // `else`: none of 200 or 401.
        let otherwise = try #require(try Self.response(guards, index: 3))
        #expect(otherwise.status != 200 && otherwise.status != 401)
    }

    @Test func unanalysableOrImpossibleGuardsGiveNoHint() throws {
        #expect(try Self.response(["matches(body.msg, \"^a\")"], index: 0) == nil)
        #expect(try Self.response(["status == 200", "status == 200"], index: 1) == nil)
        #expect(try Self.response(["status >= 400", "status == 401"], index: 1) == nil)
    }

    // MARK: Skeletons

    static let flow = """
        flow: t.login
        inputs:
          email: { type: email }
          code: { type: code, secret: true }
        start: login
        states:
          login:
            request: { method: POST, path: /login, json: { email: "${inputs.email}" } }
            on:
              - when: status == 200 && body.requires2FA == true
                set: { user: body.userId }
                goto: ask_code
              - when: status == 401
                goto: rejected
            unreachable: offline
          ask_code: { input: code, goto: verify, invalid: rejected }
          verify:
            request: { method: POST, path: "/users/${user}/verify" }
            on:
              - when: status == 200 && exists(body.token)
                store: { token: body.token, expires_at: now + body.expiresIn }
                goto: ok
              - else: true
                goto: rejected
          ok: { end: ok, success: true }
          rejected: { end: "yes", success: false }
          offline: { end: offline, success: false }
        """

    @Test func skeletonsNameTheirFilesStablyAndScriptEachEdge() throws {
        let specs = try TestSpecs.load(["t.yaml": Self.flow])
        let flow = try #require(specs.flows["t.login"])
        let files = ScenarioScaffold.files(PathFinder.report(CompiledFlow(flow)), flow: flow, specs: specs)
        #expect(
            files.map(\.fileName) == [
                "t-login-01-ok.yaml", "t-login-02-rejected.yaml", "t-login-03-offline.yaml",
                "t-login-04-via-ask_code-1.yaml", "t-login-05-via-verify-1.yaml",
            ])
        let ok = files[0].yaml
        #expect(ok.contains("scenario: \"t.login path 1: to ok\"\n"))
        #expect(ok.contains("  email: \"qa@example.com\"  # TODO: placeholder email\n"))
        #expect(ok.contains("  code: \"123456\"  # TODO: placeholder code\n"))
        #expect(
            ok.contains(
                "  - request: { method: POST, path: /login }\n    response:\n      status: 200\n      json: { requires2FA: true, userId: placeholder }\n"
            ))
        // The second path is rendered with the user id the first response gave.
        #expect(ok.contains("path: /users/placeholder/verify }"))
        #expect(ok.contains("json: { expiresIn: 3600, token: placeholder }"))
        #expect(ok.contains("expect:\n  outcome: ok\n  success: true\n  path: [login, ask_code, verify, ok]\n"))
        #expect(files[0].openTodos.isEmpty)
        // An outcome YAML would read as a boolean is quoted.
        #expect(files[1].yaml.contains("  outcome: \"yes\"\n"))
        #expect(files[2].yaml.contains("response: { fail: refused }"))
        #expect(files[3].yaml.contains("  code: \"not-a-code!\"  # TODO: invalid on purpose"))
        // `else` after `status == 200 && exists(body.token)`: a status that is not 200.
        #expect(files[4].yaml.contains("      status: 201\n") || files[4].yaml.contains("      status: 400\n"))
        #expect(files.allSatisfy { $0.openTodos.isEmpty })
    }

    @Test func undecidableGuardsLeaveATodo() throws {
        let yaml = """
            flow: t.todo
            start: r
            states:
              r:
                request: { method: GET, path: "/items/${vars.tenant}" }
                on:
                  - when: matches(body.msg, "^ok")
                    goto: done
              done: { end: done, success: true }
            """
        let specs = try TestSpecs.load(["t.yaml": yaml])
        let flow = try #require(specs.flows["t.todo"])
        let file = try #require(
            ScenarioScaffold.files(PathFinder.report(CompiledFlow(flow)), flow: flow, specs: specs).first)
        #expect(file.openTodos == ["TODO: make `matches(body.msg, \"^ok\")` true"])
        #expect(file.yaml.contains("  # TODO: make `matches(body.msg, \"^ok\")` true\n"))
        #expect(file.yaml.contains("vars:\n  tenant: placeholder-tenant  # TODO: placeholder run variable\n"))
        #expect(file.yaml.contains("path: /items/placeholder-tenant }"))
        #expect(file.yaml.contains("# Open TODOs (1)"))
    }

    @Test func choicesOnTheStoreChooseTheInitialStore() throws {
        let yaml = """
            flow: t.restore
            namespace: staff
            start: check
            states:
              check:
                choice:
                  - when: "!exists(store.access_token)"
                    goto: out
                  - when: exists(store.expires_at) && store.expires_at < now
                    goto: expired
                  - else: true
                    goto: fine
              out: { end: out, success: false }
              expired: { end: expired, success: false }
              fine: { end: fine, success: true }
            """
        let specs = try TestSpecs.load(["t.yaml": yaml])
        let flow = try #require(specs.flows["t.restore"])
        let files = ScenarioScaffold.files(PathFinder.report(CompiledFlow(flow)), flow: flow, specs: specs)
        #expect(files.count == 3)
        #expect(!files[0].yaml.contains("store:"))
        #expect(
            files[1].yaml.contains(
                "store:\n  staff:\n    access_token: placeholder  # TODO: placeholder\n    expires_at: 1699999999"))
        #expect(files[2].yaml.contains("    access_token: placeholder"))
        #expect(!files[2].yaml.contains("expires_at"))
        #expect(files.allSatisfy { $0.openTodos.isEmpty })
    }
}
