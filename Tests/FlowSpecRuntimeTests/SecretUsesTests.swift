import TestSupport
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// A run variable is a secret because of where a flow sends it (`SecretUses`) or because its name is a credential's
/// by its last word (`CredentialKey.isCredentialName`) — not because a credential word appears somewhere in its name.
@Suite(.timeLimit(.minutes(5))) struct SecretUsesTests {
    static let flow = """
        flow: t.login
        inputs:
          password: { type: string, secret: true }
          code: { type: code }
          note: { type: string }
          answer: { type: string }
        variables:
          pin_source: vars.via_variable
        defaults:
          base_url: "http://localhost:9"
          headers: { X-Api-Key: "${vars.via_default_header}", User-Agent: "${vars.user_agent}" }
        start: login
        states:
          login:
            request:
              method: POST
              path: /login
              query: { otp: "${vars.via_query}", lang: "${vars.language}" }
              headers: { Authorization: "Basic ${vars.via_header}" }
              json: { user: { email: "${vars.code_email}", credentials: { pass: "${vars.via_json}" } }, pin: "${pin_source}", note: "${inputs.note}", reply: "${inputs.answer}", password: "${inputs.answer}" }
            on:
              - when: status == 200
                set: { email_code: vars.via_set }
                store: { refresh_token: vars.via_store, display_name: vars.display_name }
                goto: second
              - else: true
                goto: done
          second:
            call: t.child
            with: { secret_in: vars.via_call, plain_in: vars.plain_call }
            on:
              - else: true
                goto: done
          done:
            end: done
            success: true
            outputs: { at: "${totp(vars.via_totp)}" }

        """
    static let child = """
        flow: t.child
        inputs:
          secret_in: { type: string, secret: true }
          plain_in: { type: string }
        defaults:
          base_url: "http://localhost:9"
        start: done
        states:
          done:
            end: done
            success: true

        """
    static let session = """
        session: t.s
        namespace: t
        headers:
          Authorization: "Bearer ${vars.via_session}"
          X-Tenant: "${vars.tenant}"

        """

    static func uses() throws -> SecretUses {
        SecretUses(specs: try TestSpecs.load(["t/login.yaml": flow, "t/child.yaml": child, "t/s.yaml": session]))
    }

    @Test func variablesSentAsSecretsAreFoundWhateverTheirNames() throws {
        let uses = try Self.uses()
        for name in [
            "via_variable", "via_default_header", "via_query", "via_header", "via_json", "via_set", "via_store",
            "via_call",
            "via_totp", "via_session",
        ] {
            #expect(uses.variables.contains(name), "\(name) is used as a secret")
        }
        for name in ["code_email", "language", "user_agent", "display_name", "plain_call", "tenant"] {
            #expect(!uses.variables.contains(name), "\(name) is not used as a secret")
        }
    }

    @Test func inputsUsedAsSecretsIncludeCodesAndInputsSentAsCredentials() throws {
        let uses = try Self.uses()
        #expect(uses.inputs.isSuperset(of: ["password", "code", "secret_in", "answer"]), "\(uses.inputs)")
        #expect(!uses.inputs.contains("note") && !uses.inputs.contains("plain_in"), "\(uses.inputs)")
    }

    @Test func scenarioInputsAddTheVariablesTheyFeedIntoSecretInputsAndTotp() throws {
        var uses = try Self.uses()
        let templates: [String: [Template]] = [
            "password": [Self.template("${vars.qa_login_value}")], "note": [Self.template("${vars.code_email}")],
            "answer": [Self.template("x${vars.answer_value}")], "code": [Self.template("${totp(vars.seed_for_note)}")],
        ]
        uses.add(inputs: templates)
        #expect(uses.variables.isSuperset(of: ["qa_login_value", "answer_value", "seed_for_note"]))
        #expect(!uses.variables.contains("code_email"))
    }

    static func template(_ text: String) -> Template {
        try! Template.parse(text, at: SourceLocation(file: "s.yaml", line: 1, column: 1)).get()
    }

    @Test func aNameIsACredentialsByItsLastWord() {
        for name in [
            "admin_password", "totp_secret", "email_code", "api_key", "supabase_anon_key", "phone_otp", "code", "token",
            "staff_password2", "refresh", "clientSecret", "recovery_code", "session_cookie",
        ] {
            #expect(Redactor.isCredentialName(name), "\(name) names a credential")
        }
        for name in [
            "code_email", "password_hint_url", "token_company", "otp_required", "country_code", "status_code", "email",
            "login_codes_single_use", "email_code_command", "api_key_id", "token_type", "qa_login_value",
        ] {
            #expect(!Redactor.isCredentialName(name), "\(name) does not")
        }
    }

    @Test func runVariablesAreMaskedByUseOrByTheirLastWord() {
        let redactor = Redactor()
        redactor.registerVariables(
            [
                "code_email": .string("qa@example.com"), "qa_login_value": .string("plain-Lemon-42"),
                "admin_password": .string("Swordfish-99"),
                "password_hint_url": .string("https://example.com/hint"), "email_code_command": .string("cat code.txt"),
            ], usedAsSecrets: ["qa_login_value"])
        #expect(
            !redactor.isSecret("qa@example.com") && !redactor.isSecret("https://example.com/hint")
                && !redactor.isSecret("cat code.txt"))
        #expect(redactor.isSecret("plain-Lemon-42") && redactor.isSecret("Swordfish-99"))
    }

    @Test func whatARequestSendsAsACredentialIsRegisteredAsItIsSent() {
        let redactor = Redactor()
        var request = HTTPRequest(
            method: "POST", baseURL: nil, path: "/login", query: [("otp", "123456"), ("lang", "en")],
            json: .object([
                "email": .string("qa@example.com"), "user": .object(["password": .string("x")]),
                "remember_token": .bool(true), "code": .number(726603),
            ]))
        request.setHeader("Authorization", "Bearer abc.def.ghi")
        request.setHeader("X-Auth-Token", "opaque-1")
        request.setHeader("Proxy-Authorization", "Basic cWE6cGFzcw==")
        request.setHeader("User-Agent", "tests/1.0")
        redactor.registerSent(request)
        for secret in ["123456", "x", "726603", "abc.def.ghi", "opaque-1", "cWE6cGFzcw=="] {
            #expect(redactor.isSecret(secret), "\(secret)")
        }
        for plain in ["en", "qa@example.com", "true", "tests/1.0"] { #expect(!redactor.isSecret(plain), "\(plain)") }
    }
}
