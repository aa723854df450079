import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// Scripted exchanges and expectations: the two parts of a scenario file that describe HTTP and verdicts.
extension ScenarioDecoder {
    static func decodeExchange(_ node: YAMLNode, _ d: inout Diagnostics) -> Exchange? {
        guard let f = Fields(node, what: "an exchange", allowed: ScenarioFormat.exchangeKeys, diagnostics: &d) else {
            return nil
        }
        guard
            let r = part(
                "request", of: f, allowed: ScenarioFormat.exchangeRequestKeys,
                hint: "what request this exchange answers: `request: { method: POST, path: /api/... }`", &d)
        else { return nil }
        var matcher = RequestMatcher()
        matcher.method = r.string("method", &d)?.name.uppercased()
        matcher.path = r.string("path", &d)?.name
        if let path = matcher.path, path.contains("?") {
            d.error(
                r["path"]!.location, "`path` is matched without its query string",
                hint: "move the query into `query: { … }`")
        }
        matcher.query = stringPairs(r, "query", &d)
        matcher.headers = stringPairs(r, "headers", &d)
        matcher.headersAbsent = (r.list("headers_absent", &d) ?? []).compactMap(\.scalar)
        matcher.json = r["json"]?.json
        if r.has("form") { matcher.form = stringPairs(r, "form", &d) }

        guard
            let s = part(
                "response", of: f, allowed: ScenarioFormat.exchangeResponseKeys,
                hint: "what the backend answers: `response: { status: 200, json: { … } }`", &d)
        else { return nil }
        let response: Exchange.Response
        if let fail = s.string("fail", &d) {
            switch fail.name {
            case "refused": response = .fail(.refused)
            case "timeout": response = .fail(.timeout)
            default:
                d.error(fail.location, "`fail` is `refused` or `timeout`, found `\(fail.name)`")
                return nil
            }
        } else {
            let status = s.int("status", &d, range: 100...599) ?? 200
            var headers = stringPairs(s, "headers", &d)
            var body: [UInt8] = []
            if s.has("json"), s.has("body") {
                d.error(s.node.location, "a response has `json` or `body`, not both")
            }
            if let json = s["json"] {
                body = Array(json.json.compactJSON.utf8)
                if let declared = headers.last(where: { $0.0.lowercased() == "content-type" })?.1 {
                    if !MediaType.isJSON(declared) {
                        d.warning(
                            json.location,
                            "`json` with `Content-Type: \(declared)`, which is not a JSON media type: the flow reads `body` as text",
                            hint: "drop the header, or write the text in `body:`")
                    }
                } else {
                    headers.append(("Content-Type", "application/json"))
                }
            } else if let text = s.string("body", &d) {
                body = Array(text.name.utf8)
            }
            response = .reply(HTTPResponse(status: status, headers: headers, body: Data(body)))
        }
        let times = f.int("times", &d, range: 1...10_000) ?? 1
        let concurrent = f.bool("concurrent", &d) ?? false
        if concurrent, times < 2 {
            d.warning(
                f["concurrent"]!.location, "`concurrent: true` gathers `times` requests; with times: 1 it does nothing")
        }
        return Exchange(
            location: node.location, request: matcher, response: response, times: times, concurrent: concurrent)
    }

    /// The `request` or `response` of an exchange: required, and a mapping of its own keys. Both halves are read
    /// alike, so a missing or misspelt one is reported alike.
    static func part(
        _ key: String, of exchange: Fields, allowed: [String], hint: String, _ d: inout Diagnostics
    ) -> Fields? {
        guard let node = exchange.require(key, &d, hint: hint) else { return nil }
        return Fields(node, what: "`\(key)` of an exchange", allowed: allowed, diagnostics: &d)
    }

    static func stringPairs(_ f: Fields, _ key: String, _ d: inout Diagnostics) -> [(String, String)] {
        (f.map(key, &d) ?? []).compactMap { ref, node in
            guard let value = node.scalar else {
                d.error(node.location, "`\(key).\(ref.name)` must be a single value, found \(node.kindName)")
                return nil
            }
            return (ref.name, value)
        }
    }

    static func decodeExpectation(_ node: YAMLNode, _ d: inout Diagnostics) -> Expectation? {
        guard let f = Fields(node, what: "`expect`", allowed: expectKeys, diagnostics: &d) else { return nil }
        var e = Expectation(location: node.location)
        e.outcome = f.string("outcome", &d)?.name
        e.success = f.bool("success", &d)
        if let list = f.list("path", &d) {
            e.path = list.compactMap { item in
                guard let s = item.scalar else { d.error(item.location, "`path` lists state names"); return nil }
                return NameRef(s, at: item.textLocation)
            }
        }
        // Strings with `${…}` read the run variables and the clock, checked here as scenario inputs are.
        for (ref, node) in f.map("variables", &d) ?? [] {
            e.variables.append(
                (ref.name, Expectation.expected(node, place: "expected variable `\(ref.name)`", into: &e.templates, &d))
            )
        }
        for (ref, node) in f.map("outputs", &d) ?? [] {
            e.outputs.append(
                (ref.name, Expectation.expected(node, place: "expected output `\(ref.name)`", into: &e.templates, &d)))
        }
        e.reason = f.string("reason", &d)?.name
        e.error = f.string("error", &d)?.name
        for (key, written) in [("reason", e.reason), ("error", e.error)] where written != nil {
            _ = Expectation.expected(f[key]!, place: "expected `\(key)`", into: &e.templates, &d)
        }
        for (ref, value) in f.map("store", &d) ?? [] {
            guard let key = storeKey(ref.name, ref.location, &d, needsKey: true) else { continue }
            e.store.append(
                (key, Expectation.expected(value, place: "expected store value `\(ref.name)`", into: &e.templates, &d)))
        }
        e.storePresent = storeKeys(f, "store_present", &d)
        e.storeAbsent = storeKeys(f, "store_absent", &d)
        e.requestCount = f.int("request_count", &d, range: 0...1_000_000)
        for (outcome, node) in f.map("at_most", &d) ?? [] {
            if case .number(let n) = node.json, n == n.rounded(), n >= 0, n <= 1000 {
                e.atMost.append((outcome.name, Int(n)))
            } else {
                d.error(
                    node.location,
                    "`at_most: { \(outcome.name): N }` takes a number of copies from 0 to 1000, found `\(node.scalar ?? node.kindName)`"
                )
            }
        }
        for item in f.list("same_outputs", &d) ?? [] {
            if let name = item.scalar {
                e.sameOutputs.append(name)
            } else {
                d.error(item.location, "`same_outputs` lists output names")
            }
        }
        for item in f.list("requests", &d) ?? [] {
            guard
                let r = Fields(item, what: "a request check", allowed: ScenarioFormat.requestCheckKeys, diagnostics: &d)
            else { continue }
            var check = RequestCheck(location: item.location)
            check.method = r.string("method", &d)?.name.uppercased()
            check.path = r.string("path", &d)?.name
            check.count = r.int("count", &d, range: 0...1_000_000)
            check.headers = stringPairs(r, "headers", &d)
            check.headersAbsent = (r.list("headers_absent", &d) ?? []).compactMap(\.scalar)
            check.json = r["json"]?.json
            e.requests.append(check)
        }
        if f.keysInOrder.isEmpty {
            d.error(
                node.location, "`expect` is empty",
                hint: "state at least the outcome: `expect: { outcome: authenticated }`")
        }
        return e
    }

    static func storeKeys(_ f: Fields, _ key: String, _ d: inout Diagnostics) -> [StoreKey] {
        (f.list(key, &d) ?? []).compactMap { item in
            guard let s = item.scalar else {
                d.error(item.location, "`\(key)` lists `namespace.key` names"); return nil
            }
            return storeKey(s, item.location, &d, needsKey: false)
        }
    }

    static func storeKey(_ text: String, _ location: SourceLocation, _ d: inout Diagnostics, needsKey: Bool)
        -> StoreKey?
    {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2 { return StoreKey(namespace: parts[0], key: parts[1]) }
        if needsKey || parts.isEmpty {
            d.error(location, "store keys are written `namespace.key`, e.g. `staff.access_token`, found `\(text)`")
            return nil
        }
        return StoreKey(namespace: parts[0], key: nil)
    }
}
