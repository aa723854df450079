import Testing

@testable import FlowSpecLanguage

/// A clean scenario using every part of the format: each mistake below edits it.
let baseScenario = """
    scenario: every part of a scenario
    tags: [demo, 2fa]
    steps:
      - run: demo.login
        inputs:
          code: ["000000", 123456]
        expect: { outcome: authenticated, success: true, path: [login, ask] }
      - wait: 16m
      - wait: 30
      - relaunch: true
      - set_store: { default: { token: "not-a-jwt" }, default.user: null }
      - parallel: 3
        run: demo.login
        expect: { outcome: authenticated }
    inputs:
      email: "${vars.email}"
      password: { command: "echo ${vars.password}" }
    store:
      default: { token: t-1 }
      staff.access_token: a-1
    vars: { demo_url: "http://localhost:8080", retries: 2 }
    clock: 1700000000
    exchange_order: any
    exchanges:
      - request:
          method: post
          path: /login
          query: { page: 1 }
          headers: { User-Agent: "Demo/1.0" }
          headers_absent: [Authorization]
          json: { email: a@b.c }
        response:
          status: 200
          headers: { X-Trace: abc }
          json: { id: u-1, token: t-2 }
        times: 2
        concurrent: true
      - request: { method: GET, path: /me }
        response: { body: "plain text" }
      - request: { path: /down }
        response: { fail: timeout }
    expect:
      variables: { user: u-1 }
      outputs: { user: u-1 }
      reason: Signed
      error: unhandled
      store: { default.token: t-2 }
      store_present: [default.token, default]
      store_absent: [staff]
      request_count: 6
      requests:
        - method: POST
          path: /login
          count: 4
          headers: { User-Agent: "Demo/1.0" }
          headers_absent: [Cookie]
          json: { email: a@b.c }
    """

let scenarioMistakes: [(String, String, String)] = [
    ("outcome written as a number", "expect: { outcome: authenticated }", "expect: { outcome: 5 }"),
    ("empty expect", "expect: { outcome: authenticated }", "expect: {}"),
    ("misspelt top-level key", "exchange_order: any", "exchange_ordr: any"),
    ("misspelt expect key", "  request_count: 6", "  requests_count: 6"),
    ("unknown exchange_order", "exchange_order: any", "exchange_order: random"),
    ("flow and steps", "tags: [demo, 2fa]", "tags: [demo, 2fa]\nflow: demo.login"),
    (
        "neither flow nor steps",
        "steps:\n  - run: demo.login\n    inputs:\n      code: [\"000000\", 123456]\n    expect: { outcome: authenticated, success: true, path: [login, ask] }\n  - wait: 16m\n  - wait: 30\n  - relaunch: true\n  - set_store: { default: { token: \"not-a-jwt\" }, default.user: null }\n  - parallel: 3\n    run: demo.login\n    expect: { outcome: authenticated }\n",
        ""
    ),
    (
        "empty steps",
        "steps:\n  - run: demo.login\n    inputs:\n      code: [\"000000\", 123456]\n    expect: { outcome: authenticated, success: true, path: [login, ask] }\n  - wait: 16m\n  - wait: 30\n  - relaunch: true\n  - set_store: { default: { token: \"not-a-jwt\" }, default.user: null }\n  - parallel: 3\n    run: demo.login\n    expect: { outcome: authenticated }\n",
        "steps: []\n"
    ),
    ("step with two kinds", "  - wait: 16m", "  - wait: 16m\n    relaunch: true"),
    ("step with no kind", "  - wait: 30", "  - wiat: 30"),
    ("inputs on a wait step", "  - wait: 30", "  - wait: 30\n    inputs: { code: \"1\" }"),
    ("relaunch: false", "relaunch: true", "relaunch: false"),
    ("negative wait", "wait: 30", "wait: -30"),
    ("parallel 0", "parallel: 3", "parallel: 0"),
    ("input mapping without command", "{ command: \"echo ${vars.password}\" }", "{ cmd: \"echo\" }"),
    ("store value without a namespace", "  staff.access_token: a-1", "  access_token: a-1"),
    ("expected store key without a namespace", "store: { default.token: t-2 }", "store: { token: t-2 }"),
    ("exchange without response", "    response: { fail: timeout }\n", ""),
    ("unknown exchange key", "    times: 2", "    time: 2"),
    ("unknown fail", "fail: timeout", "fail: crash"),
    ("status out of range", "status: 200", "status: 700"),
    ("json and body", "response: { body: \"plain text\" }", "response: { body: \"plain text\", json: {} }"),
    ("times 0", "times: 2", "times: 0"),
    ("path with a query string", "path: /me", "path: /me?x=1"),
    ("unknown HTTP method", "method: GET", "method: GRT"),
    ("clock as text", "clock: 1700000000", "clock: yesterday"),
    ("live with exchanges", "tags: [demo, 2fa]", "tags: [demo, 2fa]\nlive: true"),
    ("success quoted", "success: true", "success: \"true\""),
    ("request check with an unknown key", "      count: 4", "      times: 4"),
]

@Suite(.timeLimit(.minutes(5))) struct SchemaScenarioTests {
    @Test func theBaseScenarioValidates() {
        #expect(scenarioValidator.errors(scenarioJSON(baseScenario)) == [])
    }

    @Test func aOneFlowScenarioNeedsExpect() {
        let scenario = "scenario: one flow\nflow: demo.login\n"
        #expect(scenarioValidator.errors(scenarioJSON(scenario)) == ["$: `flow` needs `expect`"])
        #expect(scenarioValidator.errors(scenarioJSON(scenario + "expect: { outcome: ok }\n")) == [])
    }

    @Test func aLiveScenarioHasNoClock() {
        let scenario = "scenario: live\nlive: true\nflow: demo.login\nclock: 5\nexpect: { outcome: ok }\n"
        #expect(scenarioValidator.errors(scenarioJSON(scenario)) == ["$.clock: not allowed here"])
        #expect(
            scenarioValidator.errors(scenarioJSON(scenario.replacingOccurrences(of: "live: true", with: "live: false")))
                == [])
    }

    @Test(arguments: scenarioMistakes.map(\.0)) func theSchemaRejects(_ name: String) throws {
        let (_, replace, with) = try #require(scenarioMistakes.first { $0.0 == name })
        #expect(baseScenario.contains(replace), "the mistake does not apply")
        #expect(
            !scenarioValidator.errors(scenarioJSON(baseScenario.replacingOccurrences(of: replace, with: with))).isEmpty)
    }
}

func scenarioJSON(_ text: String) -> JSONValue {
    switch YAMLLoader.load(text: text, file: "s.yaml") {
    case .success(let node): return node.json
    case .failure(let diagnostic): Issue.record("\(diagnostic)"); return JSONValue.null
    }
}
