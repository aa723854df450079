import Foundation
import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// A 401 that is the request's answer (a logout, a "next step required" login) is not an expired token: with
/// `answers:` or the session's `refresh.not_for` it reaches the transitions with no refresh, bearer still sent.
@Suite(.timeLimit(.minutes(5))) struct StatusAnswerTests {
    static func logoutYAML(_ extra: String) -> String {
        """
        flow: t.logout
        session: t.session
        start: out
        states:
          out:
            request: { method: POST, path: /auth/logout }
            \(extra)
            on:
              - when: status == 401
                goto: done
          done: { end: logged_out, success: true }
        """
    }

    /// The server answers every logout 401, and would refresh fine if asked.
    func backend() -> FakeBackend {
        FakeBackend { request, _ in
            request.path == "/refresh"
                ? json(200, #"{"access":"new","refresh":"r2"}"#) : json(401, #"{"logged_out":true}"#)
        }
    }

    func run(
        logout extra: String, session: String = sessionYAML,
        store: TokenStore.Snapshot = ["t": ["access": .string("old"), "refresh": .string("r1")]],
        clock: VirtualClock = VirtualClock(start: 1_000)
    ) async throws -> (FlowResult, [HTTPRequest]) {
        let specs = try TestSpecs.load([
            "t/session.yaml": session, "t/refresh.yaml": refreshYAML, "t/logout.yaml": Self.logoutYAML(extra),
        ])
        let fake = backend()
        let (context, _, _) = makeContext(specs, fake, store: store, clock: clock)
        let result = await Interpreter(context: context).run(flow: "t.logout")
        return (result, await fake.requests)
    }

    @Test func without401AsAnAnswerALogoutIsRefreshedAndEndsSignedOut() async throws {
        // The behaviour `answers:` changes: the 401 is taken for an expired token, refreshed, retried, and the
        // retried 401 reaches the transitions only because the refresh succeeded. Here the refresh is refused.
        let specs = try TestSpecs.load([
            "t/session.yaml": sessionYAML, "t/refresh.yaml": refreshYAML, "t/logout.yaml": Self.logoutYAML(""),
        ])
        let refused = FakeBackend { _, _ in json(401, "{}") }
        let (context, _, _) = makeContext(
            specs, refused, store: ["t": ["access": .string("old"), "refresh": .string("r1")]])
        let result = await Interpreter(context: context).run(flow: "t.logout")
        #expect(result.outcome == "signed_out")
        #expect(await refused.requests.map(\.path) == ["/auth/logout", "/refresh"])
    }

    @Test func answersSendsTheBearerAndTakesThe401WithoutRefreshing() async throws {
        let (result, requests) = try await run(logout: "answers: [401]")
        #expect(result.outcome == "logged_out")
        #expect(result.success)
        #expect(requests.map(\.path) == ["/auth/logout"], "no refresh, no retry")
        #expect(requests.first?.header("Authorization") == "Bearer old", "the session's headers are still sent")
    }

    @Test func aStatusNotListedStillTriggersTheRefresh() async throws {
        let (_, requests) = try await run(logout: "answers: [403]")
        #expect(requests.map(\.path) == ["/auth/logout", "/refresh", "/auth/logout"])
    }

    @Test func notForInTheSessionExemptsTheNamedRequest() async throws {
        let session = sessionYAML + "\n  not_for: [\"POST /auth/logout\"]"
        let (result, requests) = try await run(logout: "", session: session)
        #expect(result.outcome == "logged_out")
        #expect(requests.map(\.path) == ["/auth/logout"])
        #expect(requests.first?.header("Authorization") == "Bearer old")
    }

    @Test func proactiveRefreshStillHappensForARequestWhoseStatusIsAnAnswer() async throws {
        // `answers:` is about the response; an access token about to expire is refreshed before sending as always.
        let (result, requests) = try await run(
            logout: "answers: [401]",
            store: ["t": ["access": .string("old"), "refresh": .string("r1"), "expires_at": .number(1_030)]])
        #expect(result.outcome == "logged_out")
        #expect(requests.map(\.path) == ["/refresh", "/auth/logout"])
        #expect(requests.last?.header("Authorization") == "Bearer new")
    }
}
