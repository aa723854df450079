import Foundation
import Testing

@testable import FlowSpecLanguage

/// `answers:` on a request state and `refresh.not_for` in a session: what loads, and every way to get them wrong.
@Suite struct StatusAnswerLoadingTests {
    static let session = """
        session: a.session
        namespace: a
        headers: { Authorization: "Bearer ${store.access}" }
        refresh:
          flow: a.refresh
          when: status == 401
        """
    static let refresh = """
        flow: a.refresh
        start: r
        states:
          r:
            request: { method: POST, path: /refresh }
            on:
              - when: status == 200
                goto: ok
              - else: true
                goto: no
          ok: { end: refreshed, success: true }
          no: { end: refused, success: false }
        """

    static func logout(session: String = "session: a.session", answers: String = "answers: [401]") -> String {
        """
        flow: a.logout
        \(session)
        start: out
        states:
          out:
            request: { method: POST, path: /auth/logout }
            \(answers)
            on:
              - when: status == 401 || status == 204
                goto: done
          done: { end: signed_out, success: true }
        """
    }

    func load(logout: String = logout(), session: String = session) -> SpecSet {
        specs(["a/session.yaml": session, "a/refresh.yaml": Self.refresh, "a/logout.yaml": logout])
    }

    @Test func answersLoadIntoTheRequestState() throws {
        let set = load(logout: Self.logout(answers: "answers: [401, 403]"))
        #expect(set.diagnostics.errors.isEmpty, "\(messages(set))")
        guard case .request(let r)? = set.flows["a.logout"]?.states["out"]?.kind else {
            Issue.record("no request state"); return
        }
        #expect(r.answers == [401, 403])
        let session = try #require(set.sessions["a.session"])
        #expect(r.answers(401, in: session))
        #expect(!r.answers(500, in: session))
    }

    @Test(arguments: [
        ("answers: [\"401\"]", "found the quoted text \"401\""),
        ("answers: [99]", "a whole number from 100 to 599, found `99`"),
        ("answers: [600]", "a whole number from 100 to 599, found `600`"),
        ("answers: [401.5]", "found `401.5`"),
        ("answers: [unauthorized]", "found `unauthorized`"),
        ("answers: 401", "must be a list of HTTP statuses, found"),
        ("answers: []", "is empty"),
    ])
    func aStatusThatIsNotAStatusIsALocatedError(answers: String, message: String) {
        let set = load(logout: Self.logout(answers: answers))
        let errors = set.diagnostics.errors
        #expect(
            errors.contains {
                $0.message.contains(message) && $0.location.file == "a/logout.yaml" && $0.location.line == 7
            }, "\(messages(set))")
    }

    @Test func answersWithoutAnySessionIsAnError() {
        let set = load(logout: Self.logout(session: ""))
        #expect(
            set.diagnostics.errors.contains {
                $0.message.contains("`answers:` applies to a request sent through a session") && $0.location.line == 7
            },
            "\(messages(set))")
    }

    @Test func answersWithSessionNoneIsAnError() {
        let set = load(logout: Self.logout(answers: "session: none\n    answers: [401]"))
        #expect(
            set.diagnostics.errors.contains { $0.message.contains("`answers:` and `session: none`") },
            "\(messages(set))")
    }

    @Test func answersThroughASessionWithoutReactiveRefreshIsAWarning() {
        let plain = "session: a.session\nnamespace: a\nheaders: { Authorization: \"Bearer x\" }\n"
        let set = load(session: plain)
        #expect(set.diagnostics.errors.isEmpty, "\(messages(set))")
        #expect(
            set.diagnostics.sorted.contains { $0.severity == .warning && $0.message.contains("has no `refresh.when`") },
            "\(messages(set))")
    }

    @Test func notForNamesARequestByMethodAndPathAsWritten() throws {
        let session = Self.session + "\n  not_for: [\"post /auth/logout\"]"
        let set = load(logout: Self.logout(answers: ""), session: session)
        #expect(set.diagnostics.errors.isEmpty, "\(messages(set))")
        let def = try #require(set.sessions["a.session"])
        #expect(def.refresh?.notFor.map(\.description) == ["POST /auth/logout"])
        guard case .request(let r)? = set.flows["a.logout"]?.states["out"]?.kind else {
            Issue.record("no request state"); return
        }
        #expect(r.answers(401, in: def), "not_for makes every status an answer")
    }

    @Test func notForMatchesATemplatePathByItsText() {
        let flow = Self.logout(answers: "").replacingOccurrences(
            of: "path: /auth/logout", with: "path: \"/users/${ vars.id }/logout\"")
        let ok = load(logout: flow, session: Self.session + "\n  not_for: [\"POST /users/${ vars.id }/logout\"]")
        #expect(ok.diagnostics.errors.isEmpty, "\(messages(ok))")
        let rendered = load(logout: flow, session: Self.session + "\n  not_for: [\"POST /users/42/logout\"]")
        #expect(
            rendered.diagnostics.errors.contains { $0.message.contains("names POST /users/42/logout") },
            "\(messages(rendered))")
    }

    @Test(arguments: ["logout", "POST", "POST auth/logout", "FETCH /auth/logout", "{ a: 1 }"])
    func aNotForEntryThatIsNotMethodAndPathIsALocatedError(entry: String) {
        let set = load(logout: Self.logout(answers: ""), session: Self.session + "\n  not_for: [\(entry)]")
        #expect(
            set.diagnostics.errors.contains {
                $0.message.contains("each entry is a request written \"METHOD /path\"")
                    && $0.location.file == "a/session.yaml"
                    && $0.location.line == 7
            }, "\(messages(set))")
    }

    @Test func aNotForEntryThatMatchesNoRequestIsAnErrorWithTheNearestOne() {
        let set = load(logout: Self.logout(answers: ""), session: Self.session + "\n  not_for: [\"POST /auth/logut\"]")
        let error = set.diagnostics.errors.first {
            $0.message.contains("no request state sent through session `a.session`")
        }
        #expect(error?.location.line == 7, "\(messages(set))")
        #expect(error?.hint == "did you mean `POST /auth/logout`?")
    }

    @Test func aNotForEntryForARequestOutsideTheSessionIsAnError() {
        // The refresh flow's own request never goes through the session: naming it exempts nothing.
        let set = load(logout: Self.logout(answers: ""), session: Self.session + "\n  not_for: [\"POST /refresh\"]")
        #expect(set.diagnostics.errors.contains { $0.message.contains("names POST /refresh") }, "\(messages(set))")
    }
}
