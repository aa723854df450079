import Testing

@testable import FlowSpecLanguage

/// A clean flow, session and refresh flow: each mistake below edits one of them.
private let baseFiles: [String: String] = [
    "demo/login.yaml": """
    flow: demo.login
    session: demo.session
    inputs:
      email: { type: email, prompt: "Email" }
      code:
    defaults:
      base_url: "${vars.demo_url}"
      headers: { User-Agent: "Demo/1.0" }
    variables: { attempts: 0 }
    max_steps: 50
    start: login
    states:
      login:
        request:
          method: post
          path: /login
          query: { page: 1 }
          json: { email: "${inputs.email}", remember: true }
        session: none
        on:
          - when: status == 200
            set: { user: body.id }
            store: { token: body.token }
            goto: ask
          - else: true
            forget: all
            goto: rejected
        unreachable: rejected
      ask:
        input: code
        goto: pause
        invalid: rejected
      pause:
        wait: 16m
        goto: route
      route:
        choice:
          - when: exists(user)
            forget: [token]
            goto: done
          - else: true
            goto: rejected
      done: { end: authenticated, success: true, outputs: { user: user } }
      rejected: { end: rejected, success: false, reason: "no" }
    """,
    "demo/session.yaml": """
    session: demo.session
    namespace: default
    headers:
      Authorization: "Bearer ${store.token}"
    refresh:
      flow: demo.refresh
      ahead: { expires_at: store.expires_at, margin: 60s }
      on_failure: { outcome: signed_out }
    """,
    "demo/refresh.yaml": """
    flow: demo.refresh
    start: refresh
    states:
      refresh:
        request: { method: POST, url: "${vars.demo_url}/refresh", form: { token: "${store.token}" } }
        on:
          - when: status == 200
            goto: ok
          - else: true
            goto: failed
      ok: { end: refreshed, success: true }
      failed: { end: failed, success: false }
    """,
]

/// One mistake: a text replacement in one base file.
struct FlowMistake: CustomTestStringConvertible, Sendable {
    let name: String
    let file: String
    let replace: String
    let with: String
    var testDescription: String { name }

    init(_ name: String, in file: String = "demo/login.yaml", _ replace: String, _ with: String) {
        (self.name, self.file, self.replace, self.with) = (name, file, replace, with)
    }

    /// The base files with the mistake made; nil when the text to replace is not there (a broken test).
    var files: [String: String]? {
        guard var files = Optional(baseFiles), let text = files[file], text.contains(replace) else { return nil }
        files[file] = text.replacingOccurrences(of: replace, with: with)
        return files
    }
}

private let mistakes: [FlowMistake] = [
    FlowMistake(
        "misspelt transitions key", "    on:\n      - when: status == 200\n        set",
        "    trasitions:\n      - when: status == 200\n        set"),
    FlowMistake("unknown top-level key", "max_steps: 50", "max_step: 50"),
    FlowMistake("state with two kinds", "    input: code\n", "    input: code\n    choice: []\n"),
    FlowMistake("state with no kind", "    input: code\n", "    inptu: code\n"),
    FlowMistake("state that is not a mapping", "  pause:\n    wait: 16m\n    goto: route", "  pause: 16m"),
    FlowMistake("input state without goto", "    goto: pause\n    invalid: rejected", "    invalid: rejected"),
    FlowMistake("unknown input type", "type: email", "type: number"),
    FlowMistake("unknown HTTP method", "method: post", "method: FETCH"),
    FlowMistake("path without a leading slash", "path: /login", "path: login"),
    FlowMistake("both path and url", "path: /login", "path: /login\n      url: \"http://x/login\""),
    FlowMistake("neither path nor url", "      path: /login\n", ""),
    FlowMistake("both json and form", "      query: { page: 1 }", "      form: { a: b }"),
    FlowMistake(
        "request state without on",
        "    session: none\n    on:\n      - when: status == 200\n        set: { user: body.id }\n        store: { token: body.token }\n        goto: ask\n      - else: true\n        forget: all\n        goto: rejected\n",
        "    session: none\n"),
    FlowMistake("header given as a list", "User-Agent: \"Demo/1.0\"", "User-Agent: [a, b]"),
    FlowMistake(
        "transition with when and else", "      - else: true\n        forget: all",
        "      - else: true\n        when: status == 500\n        forget: all"),
    FlowMistake(
        "transition without goto", "        store: { token: body.token }\n        goto: ask",
        "        store: { token: body.token }"),
    FlowMistake("else: false", "      - else: true\n        forget: all", "      - else: false\n        forget: all"),
    FlowMistake("empty when", "      - when: exists(user)", "      - when:"),
    FlowMistake("forget neither all nor a list", "forget: all", "forget: everything"),
    FlowMistake("set of a reserved name", "set: { user: body.id }", "set: { status: body.id }"),
    FlowMistake("set of a token-store key", "set: { user: body.id }", "set: { store.token: body.id }"),
    FlowMistake("set of a dotted name", "set: { user: body.id }", "set: { user.id: body.id }"),
    FlowMistake("reserved outcome", "end: rejected", "end: error"),
    FlowMistake("end without success", "end: authenticated, success: true,", "end: authenticated,"),
    FlowMistake("quoted success", "success: true, outputs", "success: \"true\", outputs"),
    FlowMistake("max_steps out of range", "max_steps: 50", "max_steps: 0"),
    FlowMistake("max_steps quoted", "max_steps: 50", "max_steps: \"50\""),
    FlowMistake("secret not a boolean", "prompt: \"Email\"", "prompt: \"Email\", secret: yes"),
    FlowMistake("defaults with unknown key", "  base_url:", "  baseurl:"),
    FlowMistake("flow without start", "start: login\n", ""),
    FlowMistake("session without namespace", in: "demo/session.yaml", "namespace: default\n", ""),
    FlowMistake(
        "session without headers", in: "demo/session.yaml", "headers:\n  Authorization: \"Bearer ${store.token}\"\n", ""
    ),
    FlowMistake(
        "refresh without when or ahead", in: "demo/session.yaml",
        "  ahead: { expires_at: store.expires_at, margin: 60s }\n", ""),
    FlowMistake("ahead without margin", in: "demo/session.yaml", ", margin: 60s", ""),
    FlowMistake("reserved failure outcome", in: "demo/session.yaml", "outcome: signed_out", "outcome: unhandled"),
    FlowMistake("session with unknown key", in: "demo/session.yaml", "refresh:", "refesh:"),
]

@Suite(.timeLimit(.minutes(5))) struct SchemaMistakeTests {
    @Test func theBaseFilesAreCleanForTheLoaderAndTheSchema() {
        let set = SpecSet(sources: baseFiles)
        #expect(set.diagnostics.items.map(\.description) == [])
        #expect(set.flows.count == 2 && set.sessions.count == 1)
        for (file, text) in baseFiles.sorted(by: { $0.key < $1.key }) {
            #expect(flowValidator.errors(json(text, file)) == [], "\(file)")
        }
    }

    /// The real proof in the other direction: what the loader rejects, the schema rejects too.
    @Test(arguments: mistakes) func theLoaderAndTheSchemaRejectIt(_ mistake: FlowMistake) throws {
        let files = try #require(mistake.files, "`\(mistake.replace)` is not in \(mistake.file)")
        #expect(SpecSet(sources: files).diagnostics.hasErrors, "the loader accepts it")
        #expect(!flowValidator.errors(json(files[mistake.file]!, mistake.file)).isEmpty, "the schema accepts it")
    }

    @Test func aSessionFileIsToldApartFromAFlowThatNamesASession() {
        let session = json(baseFiles["demo/session.yaml"]!, "s.yaml")
        // As a session it is fine; the flow rules (start, states) must not apply to it.
        #expect(flowValidator.errors(session) == [])
        // A flow that declares `session:` is still checked as a flow.
        let flow = json("flow: demo.x\nsession: demo.session\nheaders: {}\n", "f.yaml")
        #expect(flowValidator.errors(flow).contains("$.headers: unknown key `headers`"))
        #expect(flowValidator.errors(flow).contains("$: missing required key `states`"))
    }
}

private func json(_ text: String, _ file: String) -> JSONValue {
    switch YAMLLoader.load(text: text, file: file) {
    case .success(let node): return node.json
    case .failure(let diagnostic): Issue.record("\(diagnostic)"); return JSONValue.null
    }
}
