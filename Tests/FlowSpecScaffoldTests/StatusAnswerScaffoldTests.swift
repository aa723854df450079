import FlowSpecDiagrams
import FlowSpecLanguage
import TestSupport
import Testing

@testable import FlowSpecScaffold

/// A generated scenario asks for the refresh exchanges only where the run would refresh: not for a status the
/// request answers with (`answers:`).
@Suite struct StatusAnswerScaffoldTests {
    static func files(answers: String) throws -> [String] {
        let session = """
            session: t.session
            namespace: t
            headers: { Authorization: "Bearer ${store.access}" }
            refresh: { flow: t.refresh, when: status == 401 }
            """
        let refresh = """
            flow: t.refresh
            start: r
            states:
              r:
                request: { method: POST, path: /refresh }
                on:
                  - else: true
                    goto: ok
              ok: { end: refreshed, success: true }
            """
        let logout = """
            flow: t.logout
            session: t.session
            start: out
            states:
              out:
                request: { method: POST, path: /logout }
                \(answers)
                on:
                  - when: status == 401
                    goto: done
              done: { end: logged_out, success: true }
            """
        let specs = try TestSpecs.load(["t/session.yaml": session, "t/refresh.yaml": refresh, "t/logout.yaml": logout])
        let flow = try #require(specs.flows["t.logout"])
        return ScenarioScaffold.files(PathFinder.report(CompiledFlow(flow)), flow: flow, specs: specs).flatMap(
            \.openTodos)
    }

    @Test func aStatusTheRequestAnswersWithNeedsNoRefreshExchanges() throws {
        #expect(try Self.files(answers: "").contains { $0.contains("matches session `t.session`'s refresh guard") })
        #expect(try !Self.files(answers: "answers: [401]").contains { $0.contains("refresh guard") })
    }
}
