import Foundation
import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import FlowSpecReports
import FuzzSupport

/// Input: an HTTP response (status line, headers, empty line, body) that answers every request of a fixed login
/// run (ResponseWorld). The run goes through the request states' transitions, stores what the response hands
/// out, and is reported on the console (plain and --verbose) and as the JSON report. The invariant: no secret
/// the run declares — the secret password input, the API key in the token store, a credential the response
/// hands out — appears in any of that text, nor in the Redactor's own rendering of the response.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let response = HTTPResponse(fuzzed: Fuzz.bytes(data, size))
    let world = ResponseWorld.loaded
    let secrets = [ResponseWorld.password, ResponseWorld.apiKey] + handedOutCredentials(response.json)

    let report = Fuzz.block {
        var runner = ScenarioRunner(specs: world.specs, jobs: 1, live: FixedResponse(response: response))
        runner.liveClock = VirtualClock(start: 1_790_000_000)
        return await runner.run(world.scenario)
    }
    let record = RunRecord(reports: [report], specs: world.specs, startedAt: Date(timeIntervalSince1970: 1_790_000_000),
                           durationSeconds: 0, toolVersion: "fuzz")
    let shown = [
        ("console", ConsoleReporter(color: false).line(for: report)),
        ("console --verbose", ConsoleReporter(color: false, verbose: true).line(for: report)),
        ("JSON report", JSONReport.render(record)),
        ("redacted response", redactedDirectly(response)),
    ]
    for (place, text) in shown {
        for secret in secrets where Fuzz.occurs(secret, in: text) {
            Fuzz.fail("secret \(secret) appears in the \(place):\n\(text.prefix(4000))")
        }
    }
    return 0
}

/// Credentials the response hands out that the run must mask, chosen so that no masking rule exempts them and
/// no fixed text of a report can contain them by chance: a string under a credential key (`access_token`…),
/// 16+ characters, letters and digits only with at least one of each.
func handedOutCredentials(_ json: JSONValue) -> [String] {
    switch json {
    case .object(let fields):
        return fields.flatMap { key, value -> [String] in
            if case .string(let s) = value {
                let opaque = s.count >= 16 && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                    && s.contains(where: \.isLetter) && s.contains(where: \.isNumber)
                return Redactor.isSensitiveKey(key) && opaque ? [s] : []
            }
            return handedOutCredentials(value)
        }
    case .array(let items): return items.flatMap(handedOutCredentials)
    default: return []
    }
}

/// The Redactor on its own, with the run's secrets registered: headers, the body as JSON and as text.
func redactedDirectly(_ response: HTTPResponse) -> String {
    let redactor = Redactor()
    redactor.register(ResponseWorld.password)
    redactor.register(ResponseWorld.apiKey)
    redactor.registerCredentials(in: response.json)
    var text = response.headers.map { let shown = redactor.maskedHeader($0.0, $0.1); return "\(shown.name): \(shown.value)" }.joined(separator: "\n")
    text += "\n" + redactor.maskedJSON(response.json).compactJSON
    text += "\n" + redactor.redact(String(decoding: response.body, as: UTF8.self))
    return text
}
