import FlowSpecLanguage
import FlowSpecRuntime

/// Compares what a run did with what a scenario expects, producing masked, self-explaining failures.
struct ExpectationChecker {
    let redactor: Redactor

    func show(_ value: JSONValue) -> String { redactor.shown(value) }

    /// The checks over all copies of a `parallel:` step. Output values are never shown: they are often tokens.
    func checkCopies(_ e: Expectation, _ results: [FlowResult], label: String) -> [String] {
        var failures: [String] = []
        for (outcome, most) in e.atMost {
            let ended = results.filter { $0.outcome == outcome }.count
            if ended > most {
                failures.append("\(label)\(ended) of \(results.count) copies ended `\(outcome)`; at most \(most) may")
            }
        }
        for name in e.sameOutputs {
            let values = results.compactMap { $0.outputs[name] }
            let distinct = Set(values.map(\.compactJSON)).count
            if distinct > 1 {
                failures.append(
                    "\(label)\(values.count) copies ended with output `\(name)`, with \(distinct) different values; all must be the same"
                )
            }
        }
        return failures
    }

    func checkRun(_ e: Expectation, _ result: FlowResult, label: String) -> [String] {
        var out: [String] = []
        let prefix = label.isEmpty ? "" : "\(label): "
        if let outcome = e.outcome, outcome != result.outcome {
            var line = "\(prefix)expected outcome `\(outcome)`, got `\(result.outcome)`"
            if !result.reason.isEmpty { line += " — \(redactor.redact(result.reason))" }
            out.append(line)
        }
        if let success = e.success, success != result.success {
            out.append("\(prefix)expected success \(success), got \(result.success) (outcome `\(result.outcome)`)")
        }
        if let path = e.path?.map(\.name), path != result.path {
            out.append(
                "\(prefix)expected path \(path.joined(separator: " → "))\n      got path  \(result.path.joined(separator: " → "))"
            )
        }
        for (name, value) in e.variables {
            let actual = result.variables[name]
            if actual != value {
                out.append("\(prefix)expected variable `\(name)` = \(show(value)), got \(actual.map(show) ?? "unset")")
            }
        }
        for (name, value) in e.outputs where result.outputs[name] != value {
            out.append(
                "\(prefix)expected output `\(name)` = \(show(value)), got \(result.outputs[name].map(show) ?? "none")")
        }
        if let reason = e.reason, !TextSearch.contains(reason, in: result.reason) {
            out.append(
                "\(prefix)expected the reason to contain \"\(redactor.redact(reason))\", got \"\(redactor.redact(result.reason))\""
            )
        }
        if let error = e.error {
            switch result.ending {
            case .end:
                out.append(
                    "\(prefix)expected an error containing \"\(redactor.redact(error))\", but the flow ended normally with `\(result.outcome)`"
                )
            default:
                if !TextSearch.contains(error, in: result.reason) {
                    out.append(
                        "\(prefix)expected an error containing \"\(redactor.redact(error))\", got \"\(redactor.redact(result.reason))\""
                    )
                }
            }
        }
        return out
    }

    func checkStore(_ e: Expectation, _ store: TokenStore.Snapshot) -> [String] {
        var out: [String] = []
        for (key, value) in e.store {
            let actual = store[key.namespace]?[key.key!]
            if actual != value {
                out.append(
                    "expected store \(key) = \(show(value)), got \(actual.map(show) ?? "nothing")"
                        + (actual == nil ? whereInstead(key, store) : ""))
            }
        }
        for key in e.storePresent {
            if let k = key.key {
                if store[key.namespace]?[k] == nil {
                    out.append("expected store \(key) to be present, but it is absent")
                }
            } else if (store[key.namespace] ?? [:]).isEmpty {
                out.append("expected store namespace `\(key.namespace)` to hold values, but it is empty")
            }
        }
        for key in e.storeAbsent {
            if let k = key.key {
                if store[key.namespace]?[k] != nil {
                    out.append(
                        "expected store \(key) to be absent, but it holds \(redactor.shown(store[key.namespace]![k]!))")
                }
            } else if let values = store[key.namespace], !values.isEmpty {
                out.append(
                    "expected store namespace `\(key.namespace)` to be empty, but it holds: \(values.keys.sorted().joined(separator: ", "))"
                )
            }
        }
        return out
    }

    /// A missing key is most often written to another namespace (a flow without a session writes to `default`
    /// unless it declares `namespace:`): say where it is, or what the namespace does hold.
    func whereInstead(_ key: StoreKey, _ store: TokenStore.Snapshot) -> String {
        guard let name = key.key else { return "" }
        let elsewhere = store.keys.sorted().filter { store[$0]?[name] != nil && $0 != key.namespace }
        if !elsewhere.isEmpty {
            return
                " — `\(name)` is in namespace \(elsewhere.map { "`\($0)`" }.joined(separator: ", ")); a flow writes to its `namespace:`, else its session's, else `default`"
        }
        let held = (store[key.namespace] ?? [:]).keys.sorted()
        return held.isEmpty
            ? " (namespace `\(key.namespace)` is empty)"
            : " (namespace `\(key.namespace)` holds \(held.joined(separator: ", ")))"
    }

    /// `POST /api/auth/login, GET /api/auth/me`: each distinct method and path as sent, in the order first sent,
    /// those of `method` when one is asked for.
    func sentList(_ requests: [HTTPRequest], method: String?) -> String {
        var seen = Set<String>()
        let all = requests.filter { method == nil || $0.method == method }.map {
            "\($0.method) \(redactor.redactURL($0.sentPath))"
        }.filter { seen.insert($0).inserted }
        if all.isEmpty { return "no \(method ?? "") request" }
        return all.prefix(10).joined(separator: ", ") + (all.count > 10 ? ", …" : "")
    }

    func checkRequests(_ e: Expectation, _ requests: [HTTPRequest]) -> [String] {
        var out: [String] = []
        if let count = e.requestCount, count != requests.count {
            let list = requests.map { "\($0.method) \(redactor.redactURL($0.sentPath))" }.joined(separator: ", ")
            out.append(
                "expected \(count) request\(count == 1 ? "" : "s"), got \(requests.count)\(list.isEmpty ? "" : ": \(list)")"
            )
        }
        for check in e.requests {
            let selected = requests.filter {
                (check.method == nil || $0.method == check.method) && (check.path.map($0.isSent(to:)) ?? true)
            }
            let what = [check.method, check.path].compactMap { $0 }.joined(separator: " ")
            let label = what.isEmpty ? "requests" : "requests to \(what)"
            // What was sent instead, when nothing matched: the paths as sent are what to write.
            let sent =
                selected.isEmpty && !requests.isEmpty ? "; sent: " + sentList(requests, method: check.method) : ""
            if let count = check.count {
                if selected.count != count {
                    out.append(
                        "expected \(count) \(label) (\(check.location)), got \(selected.count)\(count > 0 ? sent : "")")
                }
            } else if selected.isEmpty {
                out.append("expected at least one of the \(label) (\(check.location)), got none\(sent)")
            }
            for (i, request) in selected.enumerated() {
                var differences = RequestMatching.headerDifferences(
                    check.headers, check.headersAbsent, request, redactor)
                if let json = check.json {
                    differences +=
                        request.json.map { RequestMatching.jsonDifferences(json, $0, at: "json", redactor) } ?? [
                            "json: expected a JSON body, got none"
                        ]
                }
                for d in differences { out.append("\(label) #\(i + 1) (\(check.location)): \(d)") }
            }
        }
        return out
    }
}
