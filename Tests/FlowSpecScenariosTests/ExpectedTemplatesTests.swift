import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// Expected values that read the run variables: a string with `${…}` in an expectation's `outputs`, `variables`,
/// `store` values, `reason` or `error` is read as a scenario input is (same scope, same located load errors, `$${` a
/// literal) and rendered with the run's variables when checked; every other string stays literal.
@Suite(.timeLimit(.minutes(5))) struct ExpectedTemplatesTests {
    static let flow = """
        flow: t.login
        defaults: { base_url: "http://backend.test" }
        variables: { username: "", role: "", profile: null }
        start: login
        states:
          login:
            request: { method: POST, path: /login }
            on:
              - when: status == 200
                set: { username: body.username, role: body.role, profile: body.profile }
                store: { access_token: body.token }
                goto: signed_in
          signed_in: { end: signed_in, success: true, reason: "signed in as ${username}", outputs: { username: username, profile: profile } }
        """

    /// The backend signs in `alice`; `vars` and `expect` are the scenario's (line 9 is `expect:`).
    static func scenario(vars: String, expect: String) -> String {
        """
        scenario: s
        vars: \(vars)
        exchanges:
          - request: { method: POST, path: /login }
            response:
              status: 200
              json: { username: alice, role: admin, token: tok-4f9a8b7c6d5e, profile: { name: alice, roles: [admin], logins: 3 } }
        flow: t.login
        expect:
        \(expect)
        """
    }

    static let alice = "{ qa_username: alice, qa_role: admin, qa_logins: 3, token_suffix: 4f9a8b7c6d5e }"

    static let everyKind = """
          outcome: signed_in
          reason: "as ${vars.qa_username}"
          outputs:
            username: "${vars.qa_username}"
            profile: { name: "${vars.qa_username}", roles: ["${vars.qa_role}"], logins: "${vars.qa_logins}" }
          variables: { role: "${vars.qa_role}" }
          store: { default.access_token: "tok-${vars.token_suffix}" }
        """

    static func decode(_ scenario: String) -> (SpecSet, Scenario?, [String]) {
        InlineSuite.decode(["flows/t/login.yaml": flow, "scenarios/s.yaml": scenario])
    }

    static func run(_ scenario: String) async throws -> ScenarioReport {
        try await InlineSuite.run(["flows/t/login.yaml": flow, "scenarios/s.yaml": scenario])
    }

    static func expectation(_ scenario: String) throws -> FlowSpecScenarios.Expectation {
        let loaded = try #require(decode(scenario).1)
        guard case .run(let step) = loaded.steps.first else { throw CancellationError() }
        return try #require(step.expect)
    }

    // MARK: - Decoding

    @Test func templatesAreParsedAtLoadAndLiteralsStayAsWritten() throws {
        let e = try Self.expectation(
            Self.scenario(
                vars: Self.alice,
                expect: """
                      outputs: { username: "${vars.qa_username}", literal: "plain text", dollars: "$5 {not} a template" }
                      reason: "as ${vars.qa_username}"
                    """))
        #expect(Set(e.templates.keys) == ["${vars.qa_username}", "as ${vars.qa_username}"])
        #expect(e.outputs.first { $0.0 == "literal" }?.1 == .string("plain text"))
        #expect(e.outputs.first { $0.0 == "dollars" }?.1 == .string("$5 {not} a template"))
    }

    @Test func renderingFillsEveryKindAndALoneTemplateKeepsItsType() throws {
        let e = try Self.expectation(Self.scenario(vars: Self.alice, expect: Self.everyKind))
        let vars: [String: JSONValue] = [
            "qa_username": .string("alice"), "qa_role": .string("admin"), "qa_logins": .number(3),
            "token_suffix": .string("x1"),
        ]
        let r = try e.rendered(vars: vars, now: 0, Redactor())
        #expect(r.templates.isEmpty)
        #expect(r.reason == "as alice")
        #expect(r.outputs.first { $0.0 == "username" }?.1 == .string("alice"))
        #expect(
            r.outputs.first { $0.0 == "profile" }?.1
                == .object(["name": .string("alice"), "roles": .array([.string("admin")]), "logins": .number(3)]))
        #expect(r.variables.first?.1 == .string("admin"))
        #expect(r.store.first?.1 == .string("tok-x1"))
    }

    @Test func dollarDollarIsALiteralDollarBrace() throws {
        let e = try Self.expectation(
            Self.scenario(vars: Self.alice, expect: #"  outputs: { username: "$${vars.qa_username}" }"#))
        let r = try e.rendered(vars: [:], now: 0, Redactor())
        #expect(r.outputs.first?.1 == .string("${vars.qa_username}"))
    }

    @Test(arguments: [
        (
            #"outputs: { username: "${inputs.username}" }"#, "scenarios/s.yaml:11:27:",
            "expected output `username` can read only run variables and the clock"
        ),
        (
            #"outputs: { username: "${username}" }"#, "scenarios/s.yaml:11:27:",
            "expected output `username` can read only run variables and the clock; `username` is not one of them"
        ),
        (
            #"outputs: { profile: { name: "${store.name}" } }"#, "scenarios/s.yaml:11:34:",
            "expected output `profile` can read only run variables and the clock, like `${vars.staff_email}` or `${totp(vars.totp_secret)}`; found `store`"
        ),
        (#"variables: { role: "${vars.qa_role" }"#, "scenarios/s.yaml:11:23:", "unclosed `${`"),
        (
            #"store: { default.access_token: "${body.token}" }"#, "scenarios/s.yaml:11:37:",
            "expected store value `default.access_token` can read only"
        ),
        (#"reason: "as ${nope(vars.qa_username)}""#, "scenarios/s.yaml:11:17:", "unknown function `nope`"),
        (
            #"error: "${response.reason}""#, "scenarios/s.yaml:11:13:",
            "expected `error` can read only run variables and the clock; `response` is not one of them"
        ),
    ])
    func aTemplateThatReadsAnythingButVarsAndNowIsALocatedLoadError(expect: String, at: String, message: String) {
        // Line 10 is `outcome:`, line 11 the value under test.
        let (_, _, errors) = Self.decode(Self.scenario(vars: Self.alice, expect: "  outcome: signed_in\n  " + expect))
        #expect(errors.contains { $0.hasPrefix(at) && $0.contains(message) }, "\(expect): \(errors)")
    }

    @Test func aLiveScenarioNeedsTheVariablesItsExpectationsRead() throws {
        let live = Self.scenario(vars: "{}", expect: #"  outputs: { username: "${vars.qa_username}" }"#)
            .replacingOccurrences(of: "scenario: s\n", with: "scenario: s\nlive: true\n")
            .components(separatedBy: "\n").filter {
                !$0.contains("exchanges:") && !$0.contains("- request") && !$0.contains("response:")
                    && !$0.contains("status: 200") && !$0.contains("json: {")
            }
            .joined(separator: "\n")
        let (_, loaded, errors) = Self.decode(live)
        #expect(errors.isEmpty, "\(errors)")
        #expect(loaded?.requiredVars.contains("qa_username") == true, "\(loaded?.requiredVars ?? [])")
    }

    // MARK: - Checking

    @Test func everyKindPassesWhenTheRunMatchesTheVariables() async throws {
        let report = try await Self.run(Self.scenario(vars: Self.alice, expect: Self.everyKind))
        #expect(report.status == .passed, "\(report.failures)")
    }

    @Test func aDifferentValueFailsWithTheRenderedValue() async throws {
        let bob = Self.alice.replacingOccurrences(of: "qa_username: alice", with: "qa_username: bob")
        let report = try await Self.run(Self.scenario(vars: bob, expect: Self.everyKind))
        #expect(report.status == .failed)
        #expect(report.failures.contains(#"expected output `username` = "bob", got "alice""#), "\(report.failures)")
        #expect(
            report.failures.contains(#"expected the reason to contain "as bob", got "signed in as alice""#),
            "\(report.failures)")
        #expect(
            !report.failures.joined().contains("${"),
            "the rendered value is shown, not the template: \(report.failures)")
    }

    @Test func aRenderedSecretStaysMasked() async throws {
        let vars = "{ qa_password: Sup3r-Secret-Pw-9 }"
        let report = try await Self.run(
            Self.scenario(vars: vars, expect: #"  outputs: { username: "${vars.qa_password}" }"#))
        #expect(report.status == .failed)
        #expect(report.failures.contains { $0.hasPrefix("expected output `username` = ") }, "\(report.failures)")
        #expect(!report.failures.joined().contains("Sup3r-Secret-Pw-9"), "\(report.failures)")
    }

    @Test func aVariableNotGivenFailsSayingWhereToGiveIt() async throws {
        let report = try await Self.run(
            Self.scenario(vars: "{}", expect: #"  outputs: { username: "${vars.qa_username}" }"#))
        #expect(report.status == .failed)
        #expect(
            report.failures.contains {
                $0.hasPrefix("scenarios/s.yaml:10:") && $0.contains("expected value") && $0.contains("qa_username")
            },
            "\(report.failures)")
    }
}
