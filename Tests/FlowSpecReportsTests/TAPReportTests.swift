import Testing

@testable import FlowSpecReports

@Suite(.timeLimit(.minutes(5))) struct TAPReportTests {
    @Test func wholeDocument() {
        let tap = TAPReport.render(SampleRun.all)
        let expected = """
            TAP version 13
            1..4
            ok 1 - staff logs in
            not ok 2 - wrong \\# password \\\\ rejected
              ---
              message: "expected outcome `authenticated`, got `rejected`: <&>\\"' in the body"
              severity: fail
              file: "scenarios/repairminder/wrong.yaml"
              duration_ms: 1500.000
              failures:
                - "expected outcome `authenticated`, got `rejected`: <&>\\"' in the body\\nsecond line \\u001B[31mred\\u001B[0m"
                - "store staff.access_token should be absent"
              paths:
                - "repairminder.login: login → rejected"
              last_exchange: "POST /api/auth/login → 401 {\\"error\\":\\"nope\\"}"
              ...
            ok 3 - live login # SKIP live scenario: no backend (give --var base_url=…) second line
            not ok 4 - backend down
              ---
              message: "POST http://127.0.0.1:9/api/auth/login: connection refused"
              severity: error
              file: "scenarios/live/down.yaml"
              duration_ms: 200.000
              failures:
                - "POST http://127.0.0.1:9/api/auth/login: connection refused"
              ...

            """
        #expect(tap == expected)
    }

    @Test func multiLineFailuresAreLiteralBlocks() {
        var report = SampleRun.failed
        report.failures = ["unexpected request:\n  POST /api/x\nexpected: GET /api/me"]
        let tap = TAPReport.render(SampleRun.record([report]))
        #expect(
            tap.contains(
                """
                  failures:
                    - |-
                      unexpected request:
                        POST /api/x
                      expected: GET /api/me
                  paths:
                """))
    }

    @Test func repeatedAndEmpty() {
        let tap = TAPReport.render(SampleRun.record([SampleRun.repeated(1), SampleRun.repeated(2)]))
        #expect(tap == "TAP version 13\n1..2\nok 1 - staff logs in (run 1 of 2)\nok 2 - staff logs in (run 2 of 2)\n")
        #expect(TAPReport.render(SampleRun.record([])) == "TAP version 13\n1..0\n")
    }

    @Test func escapes() {
        #expect(TAPReport.description("a # b \\ c\nd") == "a \\# b \\\\ c d")
    }
}
