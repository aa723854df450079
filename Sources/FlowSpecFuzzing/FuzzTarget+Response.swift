import FlowSpecLanguage
import FlowSpecReports
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

extension FuzzTarget {
    /// Input: an HTTP response (status line, headers, empty line, body) that answers every request of a fixed
    /// login run (ResponseWorld). The run goes through the request states' transitions, stores what the response
    /// hands out, and is reported on the console (plain and --verbose) and as the JSON report. The invariant: no
    /// secret the run declares — the secret password input, the API key in the token store, a credential the
    /// response hands out — appears in any of that text, nor in the Redactor's own rendering of the response.
    static func response(_ input: Data) async throws(InvariantBroken) {
        let response = HTTPResponse(fuzzed: input)
        let world = try ResponseWorld.loaded.get()
        let secrets = [ResponseWorld.password, ResponseWorld.apiKey] + handedOutCredentials(response.json)

        var runner = ScenarioRunner(specs: world.specs, jobs: 1, live: FixedResponse(response: response))
        runner.liveClock = VirtualClock(start: 1_790_000_000)
        let report = await runner.run(world.scenario)
        let record = RunRecord(
            reports: [report], specs: world.specs, startedAt: Date(timeIntervalSince1970: 1_790_000_000),
            durationSeconds: 0, toolVersion: "fuzz")
        let shown = [
            ("console", ConsoleReporter(color: false).line(for: report)),
            ("console --verbose", ConsoleReporter(color: false, verbose: true).line(for: report)),
            ("JSON report", JSONReport.render(record)),
            ("redacted response", redactedDirectly(response)),
            ("redacted response as JSON", redactedJSON(response)),
        ]
        for (place, text) in shown {
            // The JSON texts are JSON throughout, so every backslash in them starts an escape; the others show the
            // body as it came, where a backslash is the backend's own.
            let searched = place.hasPrefix("JSON") || place.hasSuffix("JSON") ? withoutEscapes(text) : text
            for secret in secrets where FuzzInput.occurs(secret, in: searched) {
                throw InvariantBroken("secret \(secret) appears in the \(place):\n\(text.prefix(4000))")
            }
        }
    }
}

/// JSON text with every escape (`\u001a`, `\n`, `\"`…) replaced by one NUL byte. An escape's own
/// characters are not the body's: the body `\u{1A}k7Rt2Yp9Qw3Zx5M` is written `\u001ak7Rt2Yp9Qw3Zx5M`, whose
/// hex digit `a` completed the secret `ak7Rt2Yp9Qw3Zx5M` the body never held (found at 1.3 M executions). A secret
/// is letters and digits, never inside an escape, so a real leak is still found whole.
func withoutEscapes(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    func isHex(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
    }
    while i < bytes.count {
        if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count {
            let next = bytes[i + 1]
            if next == UInt8(ascii: "u"), i + 5 < bytes.count, bytes[(i + 2)...(i + 5)].allSatisfy(isHex) {
                out.append(0)
                i += 6
                continue
            }
            if Array("bfnrt\"\\/".utf8).contains(next) {
                out.append(0)
                i += 2
                continue
            }
        }
        out.append(bytes[i])
        i += 1
    }
    return String(decoding: out, as: UTF8.self)
}

/// Credentials the response hands out that the run must mask, chosen so that no masking rule exempts them and
/// no fixed text of a report can contain them by chance: a string under a credential key (`access_token`…),
/// 16+ characters, letters and digits only with at least one of each.
func handedOutCredentials(_ json: JSONValue) -> [String] {
    switch json {
    case .object(let fields):
        return fields.flatMap { key, value -> [String] in
            if case .string(let s) = value {
                let opaque =
                    s.count >= 16 && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                    && s.contains(where: \.isLetter) && s.contains(where: \.isNumber)
                return Redactor.isSensitiveKey(key) && opaque ? [s] : []
            }
            return handedOutCredentials(value)
        }
    case .array(let items): return items.flatMap(handedOutCredentials)
    default: return []
    }
}

/// The Redactor on its own, with the run's secrets registered: headers and the body as text.
func redactedDirectly(_ response: HTTPResponse) -> String {
    let redactor = responseRedactor(response)
    var text = response.headers.map {
        let shown = redactor.maskedHeader($0.0, $0.1); return "\(shown.name): \(shown.value)"
    }.joined(separator: "\n")
    text += "\n" + redactor.redact(String(decoding: response.body, as: UTF8.self))
    return text
}

/// The Redactor's masked JSON of the body, as `--verbose` and the reports write it.
func redactedJSON(_ response: HTTPResponse) -> String {
    responseRedactor(response).maskedJSON(response.json).compactJSON
}

func responseRedactor(_ response: HTTPResponse) -> Redactor {
    let redactor = Redactor()
    redactor.register(ResponseWorld.password)
    redactor.register(ResponseWorld.apiKey)
    redactor.registerCredentials(in: response.json)
    return redactor
}
