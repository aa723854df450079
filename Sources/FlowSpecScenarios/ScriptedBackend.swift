import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// The scripted adapter: answers requests from a scenario's exchanges, in order or in any order, and
/// remembers every request that matched nothing so the scenario fails with a readable diff.
package actor ScriptedBackend: HTTPAdapter {
    private let exchanges: [Exchange]
    private let anyOrder: Bool
    private let redactor: Redactor
    private var remaining: OpenExchanges
    private var used: [Int] { remaining.used }
    /// Requests parked until a `concurrent` exchange has gathered all of its `times`.
    private var waiting: [Int: [CheckedContinuation<Void, Never>]] = [:]
    package private(set) var problems: [String] = []
    /// How long a concurrent exchange waits for its companions, in real time.
    private let gatherTimeout: Duration

    package init(exchanges: [Exchange], anyOrder: Bool, redactor: Redactor, gatherTimeout: Duration = .seconds(2)) {
        self.exchanges = exchanges
        self.anyOrder = anyOrder
        self.redactor = redactor
        self.remaining = OpenExchanges(exchanges, anyOrder: anyOrder)
        self.gatherTimeout = gatherTimeout
    }

    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard let index = select(request) else {
            throw TransportError(
                .notSent, url: request.pathWithQuery, cause: "no scripted exchange matches this request")
        }
        remaining.use(index)
        let exchange = exchanges[index]
        if exchange.concurrent { await gather(index) }
        switch exchange.response {
        case .fail(let kind):
            throw TransportError(
                kind, url: request.pathWithQuery,
                cause: kind == .timeout ? "timed out (scripted)" : "connection refused (scripted)")
        case .reply(let response):
            return response
        }
    }

    private func select(_ request: HTTPRequest) -> Int? {
        if anyOrder {
            let exchanges = exchanges, redactor = redactor
            if let i = remaining.first(
                method: request.method, path: request.path,
                where: { RequestMatching.differences(exchanges[$0].request, request, redactor).isEmpty })
            {
                return i
            }
            // A request nothing matches ends its flow run: this scan happens once a run at most.
            let nearest = remaining.openIndices.min {
                RequestMatching.differences(exchanges[$0].request, request, redactor).count
                    < RequestMatching.differences(exchanges[$1].request, request, redactor).count
            }
            report(request, against: nearest)
            return nil
        }
        guard let next = remaining.next() else {
            report(request, against: nil)
            return nil
        }
        if RequestMatching.differences(exchanges[next].request, request, redactor).isEmpty { return next }
        report(request, against: next)
        return nil
    }

    private func report(_ request: HTTPRequest, against index: Int?) {
        var text = "unexpected request \(request.method) \(redactor.redactURL(request.pathWithQuery))"
        if let index {
            let e = exchanges[index]
            let expected = [e.request.method, e.request.path].compactMap { $0 }.joined(separator: " ")
            text += "\n  nearest expected exchange (\(e.location)): \(expected)"
            for difference in RequestMatching.differences(e.request, request, redactor) {
                text += "\n    - \(difference)"
            }
        } else {
            text += "\n  every scripted exchange has been used"
        }
        problems.append(text)
    }

    private func gather(_ index: Int) async {
        let needed = exchanges[index].times
        if used[index] >= needed {
            for continuation in waiting[index] ?? [] { continuation.resume() }
            waiting[index] = nil
            return
        }
        let timeout = gatherTimeout
        let arrived = used[index]
        Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.releaseLate(index, arrived: arrived)
        }
        await withCheckedContinuation { waiting[index, default: []].append($0) }
    }

    private func releaseLate(_ index: Int, arrived: Int) {
        guard let parked = waiting[index], !parked.isEmpty, used[index] == arrived else { return }
        problems.append(
            "exchange at \(exchanges[index].location) expected \(exchanges[index].times) concurrent requests, but only \(used[index]) arrived together"
        )
        for continuation in parked { continuation.resume() }
        waiting[index] = nil
    }

    /// Exchanges not used as many times as they say.
    package func unused() -> [String] {
        exchanges.indices.compactMap { i in
            guard used[i] < exchanges[i].times else { return nil }
            let e = exchanges[i]
            let what = [e.request.method, e.request.path].compactMap { $0 }.joined(separator: " ")
            return
                "exchange at \(e.location) (\(what)) was used \(used[i]) of \(e.times) time\(e.times == 1 ? "" : "s")"
        }
    }
}

/// Compares what an exchange or a request check expects with a request actually sent.
package enum RequestMatching {
    package static func differences(_ m: RequestMatcher, _ r: HTTPRequest, _ redactor: Redactor) -> [String] {
        var out: [String] = []
        if let method = m.method, method != r.method { out.append("method: expected \(method), got \(r.method)") }
        if let path = m.path, path != r.path { out.append("path: expected \(path), got \(r.path)") }
        for (name, value) in m.query {
            let actual = r.query.last { $0.0 == name }?.1
            if actual != value {
                out.append(
                    "query \(name): expected \(show(value, redactor)), got \(actual.map { show($0, redactor) } ?? "nothing")"
                )
            }
        }
        out += headerDifferences(m.headers, m.headersAbsent, r, redactor)
        if let json = m.json {
            if let actual = r.json {
                out += jsonDifferences(json, actual, at: "json", redactor)
            } else {
                out.append("json: expected a JSON body, got \(r.body == nil ? "no body" : "a non-JSON body")")
            }
        }
        if let form = m.form {
            let actual = r.form ?? []
            for (name, value) in form where actual.last(where: { $0.0 == name })?.1 != value {
                out.append(
                    "form \(name): expected \(show(value, redactor)), got \(actual.last { $0.0 == name }.map { show($0.1, redactor) } ?? "nothing")"
                )
            }
        }
        return out
    }

    package static func headerDifferences(
        _ expected: [(String, String)], _ absent: [String], _ r: HTTPRequest, _ redactor: Redactor
    ) -> [String] {
        var out: [String] = []
        for (name, value) in expected {
            let actual = r.header(name)
            if actual != value {
                out.append(
                    "header \(name): expected \(show(value, redactor)), got \(actual.map { show($0, redactor) } ?? "nothing")"
                )
            }
        }
        for name in absent where r.header(name) != nil {
            out.append("header \(name): expected none, got \(show(r.header(name)!, redactor))")
        }
        return out
    }

    static func show(_ text: String, _ redactor: Redactor) -> String { "\"\(redactor.redact(text))\"" }

    /// Objects: the listed keys must match (extra keys are fine). Arrays: same length, each element a subset.
    package static func jsonDifferences(
        _ expected: JSONValue, _ actual: JSONValue, at path: String, _ redactor: Redactor
    ) -> [String] {
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            return e.keys.sorted().flatMap { key -> [String] in
                guard let value = a[key] else {
                    return ["\(path).\(key): expected \(redactor.shown(e[key]!)), got nothing"]
                }
                return jsonDifferences(e[key]!, value, at: "\(path).\(key)", redactor)
            }
        case (.array(let e), .array(let a)):
            guard e.count == a.count else { return ["\(path): expected \(e.count) items, got \(a.count)"] }
            return zip(e, a).enumerated().flatMap {
                jsonDifferences($0.element.0, $0.element.1, at: "\(path)[\($0.offset)]", redactor)
            }
        default:
            if expected == actual { return [] }
            // YAML writes `"123456"` and `123456` differently; a scenario author means the text either way.
            if case .number(let n) = expected, case .string(let s) = actual, JSONValue.format(n) == s { return [] }
            let shownExpected = redactor.shown(expected), shownActual = redactor.shown(actual)
            let note = shownExpected == shownActual ? " (secret values, masked; they differ)" : ""
            return ["\(path): expected \(shownExpected), got \(shownActual)\(note)"]
        }
    }
}
