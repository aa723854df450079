import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// `RunContextFactory`, the one place `run`, `exec` and `probe` make run contexts: what every context it makes
/// masks and how it treats a live backend.
@Suite(.timeLimit(.minutes(5))) struct RunContextFactoryTests {
    static let vars: [String: JSONValue] = [
        "staff_password": .string("hunter2-very-secret"), "base_url": .string("http://127.0.0.1:1"),
        "login_codes_single_use": .bool(true), "email_code_command": .string("cat /tmp/code"),
    ]

    @Test func everyRedactorItMakesMasksTheCredentialRunVariablesAndNothingElse() {
        let factory = RunContextFactory(specs: SpecSet(), vars: Self.vars, origin: .shell)
        let first = factory.redactor(), second = factory.redactor()
        #expect(first !== second, "each run gets its own redactor")
        for redactor in [first, second] {
            #expect(redactor.isSecret("hunter2-very-secret"))
            #expect(!redactor.isSecret("http://127.0.0.1:1"))
            #expect(!redactor.isSecret("cat /tmp/code"), "a *_command is a recipe, not a secret")
            #expect(redactor.redact("login with hunter2-very-secret") == "login with \(Redactor.mask)")
        }
    }

    @Test func aLiveBackendIsWrappedSoTheCredentialsItHandsOutAreMaskedOnArrival() async throws {
        let factory = RunContextFactory(specs: SpecSet(), vars: [:], origin: .scenario)
        let backend = FakeBackend { _, _ in json(200, #"{"access_token":"issued-token-0123456789"}"#) }
        let redactor = factory.redactor()
        let context = factory.context(
            backend: .live(backend, waitLimit: 7), clock: VirtualClock(), store: TokenStore([:], redactor: redactor),
            inputs: ListInputSource([:]), redactor: redactor)
        #expect(context.waitLimit == 7)
        #expect(context.requiresBaseURL, "a live backend needs absolute URLs")
        #expect(!redactor.isSecret("issued-token-0123456789"))
        _ = try await context.adapter.send(HTTPRequest(method: "GET", baseURL: "http://backend", path: "/me"))
        #expect(redactor.isSecret("issued-token-0123456789"), "the live backend's answer was not seen by the redactor")
    }

    @Test func aScriptedBackendIsUsedAsItIsWithoutABaseURL() async throws {
        let factory = RunContextFactory(specs: SpecSet(), vars: Self.vars, origin: .probe)
        let backend = FakeBackend { _, _ in json(200, #"{"access_token":"issued-token-0123456789"}"#) }
        let redactor = factory.redactor()
        let context = factory.context(
            backend: .scripted(backend), clock: VirtualClock(), store: TokenStore([:], redactor: redactor),
            inputs: ListInputSource([:]), redactor: redactor, vars: ["extra": .string("x")])
        #expect(context.waitLimit == nil)
        #expect(!context.requiresBaseURL, "scripted exchanges match on method and path only")
        #expect(context.vars == ["extra": .string("x")], "a run's own variables replace the factory's")
        if case .probe = context.origin {} else { Issue.record("the origin is not the factory's: \(context.origin)") }
        _ = try await context.adapter.send(HTTPRequest(method: "GET", baseURL: "http://backend", path: "/me"))
        #expect(!redactor.isSecret("issued-token-0123456789"), "a scripted backend is not wrapped")
    }

    /// A live run of a flow with no `defaults.base_url` stops with a located error; the same flow plays scripted.
    @Test func onlyALiveRunNeedsABaseURL() async throws {
        let specs = try TestSpecs.load([
            "f.yaml": """
            flow: t.ping
            start: ping
            states:
              ping:
                request: { method: GET, path: /ping }
                on:
                  - when: status == 200
                    goto: ok
              ok: { end: ok, success: true }
            """
        ])
        let factory = RunContextFactory(specs: specs, vars: [:], origin: .shell)
        for (backend, outcome) in [
            (RunContextFactory.Backend.live(FakeBackend { _, _ in json(200, "{}") }, waitLimit: 1), "error"),
            (.scripted(FakeBackend { _, _ in json(200, "{}") }), "ok"),
        ] {
            let redactor = factory.redactor()
            let context = factory.context(
                backend: backend, clock: VirtualClock(), store: TokenStore([:], redactor: redactor),
                inputs: ListInputSource([:]), redactor: redactor)
            let result = await Interpreter(context: context).run(flow: "t.ping")
            #expect(result.outcome == outcome, "\(result.reason)")
            if outcome == "error" {
                #expect(
                    result.reason.contains("has no `defaults.base_url`, so `path` has no host to go to"),
                    "\(result.reason)")
            }
        }
    }
}
