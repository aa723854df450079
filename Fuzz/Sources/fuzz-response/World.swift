import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation
import FuzzSupport

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

    static let loaded: (specs: SpecSet, scenario: Scenario) = {
        let specs = SpecSet(sources: ["flows/fuzz-login.yaml": flow, "scenarios/fuzz-response.yaml": scenario])
        var diagnostics = specs.diagnostics
        let decoded = specs.scenarioDocuments.first.flatMap {
            ScenarioDecoder.decode($0.root, file: $0.file, specs: specs, &diagnostics)
        }
        guard let decoded, !diagnostics.hasErrors else {
            Fuzz.fail("the fixed flow and scenario do not load: \(diagnostics.sorted.map(\.description))")
        }
        return (specs, decoded)
    }()
}

/// Answers every request with the same fuzzed response.
struct FixedResponse: HTTPAdapter {
    let response: HTTPResponse
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse { response }
}

extension HTTPResponse {
    /// Input layout, like HTTP on the wire: a status line, `Name: value` header lines, an empty line, the body.
    /// A status that is not a number from 0 to 999 (all a real client can deliver) is read as 200.
    init(fuzzed data: Data) {
        var rest = data
        var lines: [String] = []
        while !rest.isEmpty {
            let (line, after) = Fuzz.split(rest)
            rest = after
            if line.isEmpty { break }
            lines.append(String(decoding: line, as: UTF8.self))
        }
        let status =
            lines.first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap {
                (0...999).contains($0) ? $0 : nil
            } ?? 200
        let headers: [(String, String)] = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        self.init(status: status, headers: headers, body: Data(rest))
    }
}
