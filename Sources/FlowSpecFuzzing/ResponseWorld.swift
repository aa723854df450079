import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

/// The fixed run a fuzzed response is fed into: a login that posts a secret password with a stored API key, stores
/// the tokens the response hands out, then uses the access token. Every request gets the fuzzed response.
enum ResponseWorld {
    /// Secrets the run declares. Letters and digits only, so no report escapes them into another spelling.
    static let password = "Pw9xQ4mZt7Lk2VbN"
    static let apiKey = "ak7Rt2Yp9Qw3Zx5M"

    static let flow = """
        flow: fuzz.login
        namespace: fuzz
        defaults: { base_url: "http://backend.invalid" }
        inputs:
          email: { type: string }
          password: { type: string, secret: true }
        start: login
        states:
          login:
            request:
              method: POST
              path: /v1/login
              headers: { X-Api-Key: "${store.api_key}" }
              json: { email: "${inputs.email}", password: "${inputs.password}" }
            on:
              - when: status >= 200 && status < 300 && exists(body.access_token)
                set: { user: body.user, expires: body.expires_in }
                store: { access_token: body.access_token, refresh_token: body.refresh_token }
                goto: me
              - when: status == 401 && exists(body.error)
                set: { message: body.error }
                goto: rejected
              - when: status >= 400
                set: { message: "refused with ${status}: ${headers['x-reason']}" }
                goto: rejected
            unreachable: offline
          me:
            request:
              method: GET
              path: /v1/me
              headers: { Authorization: "Bearer ${store.access_token}" }
            on:
              - when: status == 200 && exists(body.user.id)
                set: { user: body.user.id }
                goto: authenticated
              - else: true
                forget: all
                goto: expired
            unreachable: offline
          authenticated: { end: authenticated, success: true, reason: "Logged in as ${user}" }
          rejected: { end: rejected, success: false, reason: "${message}" }
          expired: { end: expired, success: false, reason: "token refused" }
          offline: { end: offline, success: false, reason: "no answer" }
        """

    static let scenario = """
        scenario: fuzzed response
        live: true
        flow: fuzz.login
        store: { fuzz: { api_key: "\(apiKey)" } }
        inputs: { email: "qa@example.com", password: "\(password)" }
        expect: { outcome: authenticated }
        """

    static let loaded: Result<(specs: SpecSet, scenario: Scenario), InvariantBroken> = {
        let loaded = LoadedFiles(sources: ["flows/fuzz-login.yaml": flow, "scenarios/fuzz-response.yaml": scenario])
        let specs = loaded.program
        var diagnostics = specs.diagnostics
        let decoded = loaded.scenarioDocuments.first.flatMap {
            ScenarioDecoder.decode($0.root, file: $0.file, specs: specs, &diagnostics)
        }
        guard let decoded, !diagnostics.hasErrors else {
            return .failure(
                InvariantBroken("the fixed flow and scenario do not load: \(diagnostics.sorted.map(\.description))"))
        }
        return .success((specs, decoded))
    }()
}
