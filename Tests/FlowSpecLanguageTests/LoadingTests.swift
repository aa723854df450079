import Testing

@testable import FlowSpecLanguage

func specs(_ files: [String: String]) -> SpecSet {
    SpecSet(sources: files)
}

func messages(_ set: SpecSet) -> [String] {
    set.diagnostics.sorted.map { "\($0.location.line):\($0.location.column): \($0.severity.rawValue): \($0.message)" }
}

let validFlow = """
    flow: demo.login
    inputs:
      email: { type: email }
      code: { type: code, secret: true }
    start: login
    states:
      login:
        request:
          method: POST
          path: /login
          json: { email: "${inputs.email}" }
        on:
          - when: status == 200
            set: { user: body.id }
            goto: ask
          - else: true
            goto: rejected
      ask:
        input: code
        goto: verify
      verify:
        request: { method: POST, path: /verify, json: { user: "${user}", code: "${inputs.code}" } }
        on:
          - when: status == 200
            store: { token: body.token }
            goto: done
      done: { end: authenticated, success: true }
      rejected: { end: rejected, success: false, reason: "no" }
    """

@Suite(.timeLimit(.minutes(5))) struct FlowLoadingTests {
    @Test func aValidFlowLoadsClean() {
        let set = specs(["demo/login.yaml": validFlow])
        #expect(messages(set) == [])
        #expect(set.flows["demo.login"]?.stateOrder == ["login", "ask", "verify", "done", "rejected"])
    }

    @Test func unknownGotoSuggestsTheNearestState() {
        let set = specs(["demo/login.yaml": validFlow.replacingOccurrences(of: "goto: verify", with: "goto: verfy")])
        #expect(
            messages(set) == [
                "20:11: error: unknown state `verfy`",
                "21:3: warning: state `verify` is unreachable: no transition leads to it from `login`",
                "27:3: warning: state `done` is unreachable: no transition leads to it from `login`",
            ])
        #expect(set.diagnostics.items.first?.hint == "did you mean `verify`?")
    }

    @Test func variableReadBeforeSetOnSomePath() {
        let text = validFlow.replacingOccurrences(
            of: "      - else: true\n        goto: rejected", with: "      - else: true\n        goto: ask")
        let set = specs(["demo/login.yaml": text])
        #expect(
            messages(set).contains(
                "22:62: error: variable `user` may be read before it is set: some path to state `verify` does not set it"
            ))
    }

    /// `base_url` at the top of a flow is the first thing a newcomer writes: the hint says where it goes.
    @Test func aBaseURLAtTheTopSaysItBelongsUnderDefaults() {
        let set = specs([
            "demo/login.yaml": validFlow.replacingOccurrences(
                of: "start: login", with: "base_url: \"${vars.api_url}\"\nstart: login")
        ])
        let error = set.diagnostics.sorted.first { $0.severity == .error }
        #expect(error?.message == "unknown key `base_url` in a flow")
        #expect(error?.hint?.contains("`base_url` belongs under `defaults:`") == true, "\(error?.hint ?? "")")
    }

    /// A variables file kept beside the flows is said to be one, not refused; a misspelt flow still is.
    @Test func aVariablesFileInAFolderIsAWarningNotAnError() {
        let set = specs(["demo/vars.example.yaml": "api_url: http://127.0.0.1:8000\nusername: qa\nmax_age: 10\n"])
        #expect(
            messages(set) == [
                "1:1: warning: not checked: this looks like a variables file (names to single values), not a flow, session, scenario or probe"
            ])
        let misspelt = specs(["demo/login.yaml": "flwo: demo.login\nstart: done\n"])
        #expect(messages(misspelt).first?.contains("error: not a FlowSpec file") == true, "\(messages(misspelt))")
    }

    /// A logout that succeeds `signed_out` beside a session that ends its callers `signed_out` when the refresh fails:
    /// nobody can tell them apart by outcome, which hid a wrong verdict against a real server.
    @Test func aSuccessfulEndNamedLikeTheSessionsFailureOutcomeIsAWarning() {
        let session =
            "session: demo.s\nnamespace: s\nheaders: { Authorization: \"Bearer ${store.t}\" }\nrefresh: { flow: demo.refresh, when: status == 401 }\n"
        let refresh =
            "flow: demo.refresh\nstart: r\nstates:\n  r:\n    request: { method: POST, path: /r }\n    on:\n      - else: true\n        goto: ok\n  ok: { end: ok, success: true }\n"
        let logout =
            "flow: demo.logout\nsession: demo.s\nstart: out\nstates:\n  out:\n    request: { method: POST, path: /logout }\n    on:\n      - else: true\n        goto: gone\n  gone: { end: signed_out, success: true }\n"
        let set = specs(["demo/s.yaml": session, "demo/refresh.yaml": refresh, "demo/logout.yaml": logout])
        #expect(
            messages(set) == [
                "10:3: warning: end `gone` of flow `demo.logout` succeeds with outcome `signed_out`, the outcome session `demo.s` ends its callers with when a refresh fails"
            ])
        let renamed = specs([
            "demo/s.yaml": session, "demo/refresh.yaml": refresh,
            "demo/logout.yaml": logout.replacingOccurrences(of: "end: signed_out", with: "end: logged_out"),
        ])
        #expect(messages(renamed) == [])
    }

    @Test func unknownKeyWithDidYouMean() {
        let set = specs([
            "demo/login.yaml": validFlow.replacingOccurrences(
                of: "    on:\n      - when: status == 200\n        store",
                with: "    onn:\n      - when: status == 200\n        store")
        ])
        #expect(messages(set).contains("23:5: error: unknown key `onn` in state `verify`"))
    }

    /// One mistake, one error: a misspelt required key is not also reported missing.
    @Test(arguments: [
        (
            "  done: { end: authenticated, success: true }", "  done: { end: authenticated, sucess: true }",
            "27:31: error: unknown key `sucess` in state `done`", "did you mean `success`?"
        ),
        (
            "    on:\n      - when: status == 200\n        store",
            "    onn:\n      - when: status == 200\n        store",
            "23:5: error: unknown key `onn` in state `verify`", "did you mean `on`?"
        ),
        (
            "    input: code\n    goto: verify", "    input: code\n    next: verify",
            "20:5: error: unknown key `next` in state `ask`", "did you mean `goto`?"
        ),
        (
            "      method: POST\n      path: /login", "      method: POST\n      pth: /login",
            "10:7: error: unknown key `pth` in the request of state `login`", "did you mean `path`?"
        ),
    ])
    func aMisspeltRequiredKeyIsOneErrorNotTwo(correct: String, misspelt: String, error: String, hint: String) {
        #expect(validFlow.contains(correct))
        let set = specs(["demo/login.yaml": validFlow.replacingOccurrences(of: correct, with: misspelt)])
        let errors = set.diagnostics.sorted.filter { $0.severity == .error }
        #expect(errors.map { "\($0.location.line):\($0.location.column): error: \($0.message)" } == [error])
        #expect(errors.first?.hint == hint)
    }

    /// A state whose kind is misspelt still exists for references: no "unknown state", no "unreachable" after it.
    @Test func aMisspeltStateKindIsOneError() {
        let set = specs([
            "demo/login.yaml": validFlow.replacingOccurrences(
                of: "    request: { method: POST, path: /verify", with: "    reqeust: { method: POST, path: /verify")
        ])
        #expect(messages(set) == ["21:3: error: state `verify` has no kind"])
        #expect(set.diagnostics.sorted.first?.hint == "did you mean `request`?")
    }

    /// `wehn:` is the unknown key with its did-you-mean, and the transition still leads on: no "needs `when`",
    /// no unreachable states, no variables "never set" after it.
    @Test func aMisspeltWhenIsOneError() {
        let set = specs([
            "demo/login.yaml": validFlow.replacingOccurrences(
                of: "      - when: status == 200\n        set: { user: body.id }",
                with: "      - wehn: status == 200\n        set: { user: body.id }")
        ])
        #expect(messages(set) == ["13:9: error: unknown key `wehn` in a transition of state `login`"])
        #expect(set.diagnostics.sorted.first?.hint == "did you mean `when`?")
    }

    @Test func mustReadInputsAreTheOnesEveryPathReads() {
        let set = specs(["demo/login.yaml": validFlow])
        // `email` is read by the first request; `code` only after a 200, never on the `rejected` path.
        #expect(MustReadInputs.of("demo.login", specs: set) == ["email"])
        let caller = """
            flow: demo.caller
            inputs: { email: { type: email } }
            start: go
            states:
              go:
                call: demo.login
                with: { email: "x@example.com" }
                on:
                  - else: true
                    goto: done
              done: { end: done, success: true }
            """
        let both = specs(["demo/login.yaml": validFlow, "demo/caller.yaml": caller])
        #expect(MustReadInputs.of("demo.caller", specs: both) == [], "what `with:` gives is not read from the scenario")
    }

    @Test func aKeyThatIsSimplyAbsentIsStillReportedMissing() {
        let set = specs([
            "demo/login.yaml": validFlow.replacingOccurrences(
                of: "  done: { end: authenticated, success: true }", with: "  done: { end: authenticated }")
        ])
        #expect(messages(set) == ["27:9: error: state `done` is missing the required key `success`"])
    }

    @Test func duplicateKeyIsReportedAtTheSecondOccurrence() {
        let set = specs([
            "demo/login.yaml": validFlow.replacingOccurrences(of: "start: login\n", with: "start: login\nstart: ask\n")
        ])
        #expect(messages(set) == ["6:1: error: duplicate key `start`"])
    }

    @Test func deadLoopsAndUnreachableStates() {
        let text = """
            flow: demo.loop
            start: a
            states:
              a: { wait: 1s, goto: b }
              b: { wait: 1s, goto: a }
              c: { end: done, success: true }
            """
        #expect(
            messages(specs(["demo/loop.yaml": text])) == [
                "4:3: error: state `a` can never reach an end state: every path from it loops",
                "5:3: error: state `b` can never reach an end state: every path from it loops",
                "6:3: warning: state `c` is unreachable: no transition leads to it from `a`",
            ])
    }

    @Test func sessionsAndCallsAreResolved() {
        let session = """
            session: demo.s
            namespace: demo
            headers: { Authorization: "Bearer ${store.token}" }
            refresh: { flow: demo.refreshh, when: status == 401 }
            """
        let caller = """
            flow: demo.caller
            start: c
            states:
              c:
                call: demo.login
                with: { emial: "x@y.z" }
                on:
                  - when: outcome == "authenticated"
                    goto: ok
              ok: { end: ok, success: true }
            """
        let out = messages(specs(["demo/login.yaml": validFlow, "demo/s.yaml": session, "demo/caller.yaml": caller]))
        #expect(out.contains("6:13: error: flow `demo.login` has no input `emial`"))
        #expect(out.contains("4:18: error: unknown flow `demo.refreshh`"))
    }

    @Test func yamlSyntaxErrorsHavePositions() {
        guard case .failure(let d) = YAMLLoader.load(text: "flow: x\n  bad: [1,\n", file: "f.yaml") else {
            Issue.record("should fail"); return
        }
        #expect(d.location.file == "f.yaml")
        #expect(d.message.hasPrefix("invalid YAML"))
    }

    @Test func largeOrdinaryDocumentsAreNotMistakenForAliasBombs() {
        let orders = (0..<5_000).map { "    - { id: \($0), status: open, total: 12.5 }" }.joined(separator: "\n")
        guard case .success(let root) = YAMLLoader.load(text: "orders:\n" + orders + "\n", file: "big.yaml") else {
            Issue.record("should load"); return
        }
        #expect(root.mapping?.first?.value.sequence?.count == 5_000)
    }

    @Test func deeplyNestedExpressionsAreRefusedNotCrashed() {
        let deep = String(repeating: "(", count: 40) + "true" + String(repeating: ")", count: 40)
        guard case .failure(let d) = ExpressionParser.parse(deep, at: SourceLocation(file: "f", line: 1, column: 1))
        else { Issue.record("should fail"); return }
        #expect(d.message.contains("nested more than 32 levels"))
        let long = Array(repeating: "true", count: 300).joined(separator: " && ")
        guard case .failure(let d2) = ExpressionParser.parse(long, at: SourceLocation(file: "f", line: 1, column: 1))
        else { Issue.record("should fail"); return }
        #expect(d2.message.hasPrefix("expression too long"))
    }

    @Test func aliasBombsStopWithAnErrorInsteadOfExploding() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1..<8 {
            text += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        guard case .failure(let d) = YAMLLoader.load(text: text, file: "f.yaml") else {
            Issue.record("should fail"); return
        }
        #expect(d.message.contains("too many nodes"))
    }
}
