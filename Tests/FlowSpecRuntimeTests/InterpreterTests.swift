import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

let loginYAML = """
    flow: t.login
    namespace: t
    inputs:
      phone: { type: phone }
      code: { type: code, pattern: "^[0-9]{6}$", secret: true }
    variables: { attempts: 0 }
    start: ask_phone
    states:
      ask_phone:
        input: phone
        goto: ask_code
        invalid: bad_phone
      ask_code:
        input: code
        goto: verify
      verify:
        request: { method: POST, path: /verify, json: { phone: "${inputs.phone}", token: "${inputs.code}" } }
        on:
          - when: status == 200
            store: { access: body.access_token }
            goto: done
          - when: status == 403 && attempts < 2
            set: { attempts: attempts + 1 }
            goto: ask_code
          - when: status == 403
            goto: rejected
      done: { end: authenticated, success: true }
      rejected: { end: rejected, success: false, reason: "Too many wrong codes" }
      bad_phone: { end: invalid_phone, success: false, reason: "${input_error}" }
    """

@Suite(.timeLimit(.minutes(5))) struct InterpreterTests {
    @Test func successiveInputsWrongThenRight() async throws {
        let backend = FakeBackend { request, _ in
            request.json?["token"] == .string("123456")
                ? json(200, #"{"access_token":"tok-abc"}"#) : json(403, #"{"code":"otp_expired"}"#)
        }
        let (context, store, _) = makeContext(
            try TestSpecs.load(["t/login.yaml": loginYAML]), backend,
            inputs: ["phone": ["+15551234567"], "code": ["000000", "123456"]])
        let result = await Interpreter(context: context).run(flow: "t.login")
        #expect(result.outcome == "authenticated")
        #expect(result.path == ["ask_phone", "ask_code", "verify", "ask_code", "verify", "done"])
        #expect(result.variables["attempts"] == .number(1))
        #expect(store.get("t", "access") == .string("tok-abc"))
    }

    @Test func threeWrongCodesAreRejected() async throws {
        let backend = FakeBackend { _, _ in json(403, "{}") }
        let (context, _, _) = makeContext(
            try TestSpecs.load(["t/login.yaml": loginYAML]), backend,
            inputs: ["phone": ["+15551234567"], "code": ["111111", "222222", "333333"]])
        let result = await Interpreter(context: context).run(flow: "t.login")
        #expect(result.outcome == "rejected")
        #expect(await backend.requests.count == 3)
    }

    @Test func invalidPhoneGoesToTheInvalidStateWithoutAnyRequest() async throws {
        let backend = FakeBackend { _, _ in json(200, "{}") }
        let (context, _, _) = makeContext(
            try TestSpecs.load(["t/login.yaml": loginYAML]), backend, inputs: ["phone": ["5551234"]])
        let result = await Interpreter(context: context).run(flow: "t.login")
        #expect(result.outcome == "invalid_phone")
        #expect(result.reason.contains("E.164"))
        #expect(await backend.requests.isEmpty)
    }

    @Test func missingInputIsAClearError() async throws {
        let backend = FakeBackend { _, _ in json(200, "{}") }
        let (context, _, _) = makeContext(
            try TestSpecs.load(["t/login.yaml": loginYAML]), backend, inputs: ["phone": ["+15551234567"]])
        let result = await Interpreter(context: context).run(flow: "t.login")
        #expect(result.outcome == "error")
        #expect(result.reason.hasPrefix("missing input `code`"))
    }

    @Test func unhandledResponseShowsMethodPathStatusAndMaskedBody() async throws {
        let backend = FakeBackend { _, _ in json(500, #"{"error":"boom","access_token":"leaky-token-123"}"#) }
        let (context, _, redactor) = makeContext(
            try TestSpecs.load(["t/login.yaml": loginYAML]), backend,
            inputs: ["phone": ["+15551234567"], "code": ["654321"]])
        let result = await Interpreter(context: context).run(flow: "t.login")
        #expect(result.outcome == "unhandled")
        #expect(result.reason.contains("unhandled response in state `verify`: POST /verify → 500"))
        #expect(result.reason.contains(#""error":"boom""#))
        #expect(!result.reason.contains("leaky-token-123"))
        #expect(redactor.redact("code 654321") == "code ••••")
    }

    @Test func stepBudgetStopsLoopsAndShowsThePath() async throws {
        let flow = """
            flow: t.loop
            max_steps: 10
            variables: { n: 0 }
            start: a
            states:
              a:
                choice:
                  - when: n < 1000
                    set: { n: n + 1 }
                    goto: b
                  - else: true
                    goto: done
              b: { wait: 1s, goto: a }
              done: { end: done, success: true }
            """
        let (context, _, _) = makeContext(
            try TestSpecs.load(["t/loop.yaml": flow]), FakeBackend { _, _ in json(200, "{}") })
        let result = await Interpreter(context: context).run(flow: "t.loop")
        #expect(result.outcome == "error")
        #expect(result.reason.hasPrefix("step budget of 10 exceeded in flow `t.loop`; path: a → b → a → b"))
    }

    @Test func waitAdvancesTheVirtualClockInstantly() async throws {
        let flow = """
            flow: t.wait
            start: w
            states:
              w: { wait: 16m, goto: check }
              check:
                choice:
                  - when: now == 1960
                    goto: done
              done: { end: done, success: true }
            """
        let clock = VirtualClock(start: 1_000)
        let (context, _, _) = makeContext(
            try TestSpecs.load(["t/wait.yaml": flow]), FakeBackend { _, _ in json(200, "{}") }, clock: clock)
        let started = ContinuousClock.now
        let result = await Interpreter(context: context).run(flow: "t.wait")
        #expect(result.outcome == "done")
        // A real sleep would take the whole 960 s; the bound leaves room for a loaded CI machine.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func transportFailureIsInfrastructureUnlessUnreachableIsDeclared() async throws {
        struct Down: HTTPAdapter {
            func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
                throw TransportError(.refused, url: "http://127.0.0.1:9/x", cause: "connection refused")
            }
        }
        let flow = """
            flow: t.down
            start: r
            states:
              r:
                request: { path: /x }
                on:
                  - else: true
                    goto: done
              done: { end: done, success: true }
            """
        let (context, _, _) = makeContext(try TestSpecs.load(["t/down.yaml": flow]), Down())
        let result = await Interpreter(context: context).run(flow: "t.down")
        #expect(result.isInfrastructureFailure)
        #expect(result.reason.contains("refused"))

        let tolerant = flow.replacingOccurrences(of: "    on:", with: "    unreachable: done\n    on:")
        let (context2, _, _) = makeContext(try TestSpecs.load(["t/down.yaml": tolerant]), Down())
        #expect(await Interpreter(context: context2).run(flow: "t.down").outcome == "done")
    }
}

@Suite(.timeLimit(.minutes(5))) struct StoreTests {
    @Test func storeFileIsWrittenAtomicallyWithMode0600() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("store.json").path
        let snapshot: TokenStore.Snapshot = ["staff": ["access_token": .string("a"), "expires_at": .number(5)]]
        try TokenStoreFile.write(snapshot, to: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(TokenStoreFile.decode(try Data(contentsOf: URL(fileURLWithPath: path))) == snapshot)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["store.json"],
            "no temporary file left behind")
    }

    @Test func everythingWrittenToTheStoreIsMasked() async {
        let redactor = Redactor()
        let store = TokenStore(["a": ["access_token": .string("initial-secret")]], redactor: redactor)
        store.set("a", "refresh_token", .string("written-secret"))
        store.set("a", "role", .string("staff"))
        store.set("a", "blob", .string("eyJhbGciOiJIUzI1NiJ9.long-opaque"))
        store.set("a", "error_code", .string("otp_expired"))
        #expect(redactor.redact("x initial-secret y written-secret") == "x •••• y ••••")
        #expect(
            redactor.redact("role staff, eyJhbGciOiJIUzI1NiJ9.long-opaque, otp_expired")
                == "role staff, ••••, otp_expired")
        #expect(redactor.maskedHeaderValue("Authorization", "Bearer zzz") == "Bearer ••••")
    }
}
