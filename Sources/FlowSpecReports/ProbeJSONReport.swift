import FlowSpecLanguage
import FlowSpecProbe
import FlowSpecScenarios

/// `--report json=F`: every verdict with its evidence, masked. Schema `flowspec-probe`, version 1.
package enum ProbeJSONReport {
    package static func render(_ verdicts: [ProbeVerdict]) -> String {
        var counts: [String: JSONValue] = [:]
        for status in [ProbeVerdict.Status.held, .broken, .error, .skipped, .notApplicable] {
            counts[status.rawValue] = .number(Double(verdicts.filter { $0.status == status }.count))
        }
        let items: [JSONValue] = verdicts.map { v in
            var object: [String: JSONValue] = [
                "session": .string(v.session), "probe": .string(v.kind.rawValue), "title": .string(v.kind.title),
                "check": .string(v.check), "verdict": .string(v.status.rawValue), "detail": .string(v.detail),
                "promise": .string(v.source),
            ]
            if v.infrastructure { object["infrastructure"] = .bool(true) }
            if !v.evidence.isEmpty {
                object["evidence"] = .array(
                    v.evidence.map { e in
                        var record: [String: JSONValue] = ["method": .string(e.method), "url": .string(e.url)]
                        if let body = e.requestBody { record["request_body"] = .string(body) }
                        if let status = e.status { record["status"] = .number(Double(status)) }
                        if let body = e.responseBody { record["response_body"] = .string(body) }
                        if let failure = e.failure { record["failure"] = .string(failure) }
                        return .object(record)
                    })
            }
            return .object(object)
        }
        return JSONValue.object([
            "schema": .string("flowspec-probe"), "version": .number(1), "summary": .object(counts),
            "verdicts": .array(items),
        ]).prettyJSON
    }
}
