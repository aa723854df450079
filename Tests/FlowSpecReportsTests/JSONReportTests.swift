import FlowSpecLanguage
import Foundation
import Testing

@testable import FlowSpecReports

@Suite(.timeLimit(.minutes(5))) struct JSONReportTests {
    func item(_ list: JSONValue, _ index: Int) -> JSONValue {
        guard let items = list.arrayValue, index < items.count else { return .null }
        return items[index]
    }

    func document() throws -> JSONValue {
        try #require(JSONValue.parse(JSONReport.render(SampleRun.all)))
    }

    @Test func topLevelMatchesTheContract() throws {
        let doc = try document()
        #expect(
            doc.objectValue.map { Set($0.keys) } == [
                "schema", "version", "tool", "startedAt", "durationSeconds", "summary", "scenarios",
            ])
        #expect(doc["schema"] == .string("flowspec-report"))
        #expect(doc["version"] == .number(1))
        #expect(doc["tool"] == .object(["name": .string("flowspec"), "version": .string("0.1.0")]))
        #expect(doc["startedAt"] == .string("2026-11-21T10:00:00Z"))
        #expect(doc["durationSeconds"] == .number(2.25))
        #expect(
            doc["summary"]
                == .object(["total": .number(4), "passed": .number(1), "failed": .number(2), "skipped": .number(1)]))
        #expect(doc["scenarios"].arrayValue?.count == 4)
    }

    @Test func scenarioFields() throws {
        let scenarios = try #require(try document()["scenarios"].arrayValue)
        let passed = scenarios[0]
        #expect(
            passed.objectValue.map { Set($0.keys) } == [
                "name", "file", "tags", "status", "repetition", "durationSeconds",
                "infrastructureFailure", "failures", "skipReason", "runs", "exchanges",
            ])
        #expect(passed["name"] == .string("staff logs in"))
        #expect(passed["file"] == .string("scenarios/repairminder/login.yaml"))
        #expect(passed["tags"] == .array([.string("smoke"), .string("staff")]))
        #expect(passed["status"] == .string("passed"))
        #expect(passed["repetition"] == .null)
        #expect(passed["durationSeconds"] == .number(0.0123))
        #expect(passed["infrastructureFailure"] == .bool(false))
        #expect(passed["failures"] == .array([]))
        #expect(passed["skipReason"] == .null)
        #expect(
            passed["runs"]
                == .array([
                    .object([
                        "id": .number(0), "flow": .string("repairminder.login"), "parent": .null,
                        "outcome": .string("ok"), "success": .bool(true),
                        "visits": .array([
                            .object([
                                "state": .string("login"), "edge": .number(1), "falseGuards": .array([.number(0)]),
                            ]),
                            .object(["state": .string("ok"), "edge": .null, "falseGuards": .array([])]),
                        ]),
                    ])
                ]))
        #expect(
            scenarios[1]["failures"]
                == .array([.string(SampleRun.nasty), .string("store staff.access_token should be absent")]))
        #expect(scenarios[2]["skipReason"] == .string("live scenario: no backend (give --var base_url=…)\nsecond line"))
        #expect(scenarios[3]["infrastructureFailure"] == .bool(true))
    }

    @Test func exchanges() throws {
        let scenarios = try #require(try document()["scenarios"].arrayValue)
        let exchange = item(scenarios[0]["exchanges"], 0)
        #expect(
            exchange.objectValue.map { Set($0.keys) } == [
                "run", "visit", "flow", "state", "method", "url", "durationSeconds", "request", "response", "failure",
            ])
        #expect(exchange["run"] == .number(0))
        #expect(exchange["flow"] == .string("repairminder.login"))
        #expect(exchange["state"] == .string("login"))
        #expect(exchange["method"] == .string("POST"))
        #expect(exchange["url"] == .string("/api/auth/login"))
        #expect(exchange["durationSeconds"] == .number(0.0004))
        #expect(
            exchange["request"]["headers"]
                == .array([.object(["name": .string("Content-Type"), "value": .string("application/json")])]))
        #expect(exchange["request"]["body"] == .string(#"{"email":"staff@example.com","password":"••••"}"#))
        #expect(exchange["response"]["status"] == .number(200))
        #expect(exchange["response"]["body"] == .string(#"{"error":"nope"}"#))
        #expect(exchange["failure"] == .null)
        let down = item(scenarios[3]["exchanges"], 0)
        #expect(down["response"] == .null)
        #expect(down["failure"].stringValue?.contains("connection refused") == true)
    }

    @Test func repetitionIsANumber() throws {
        let doc = try #require(JSONValue.parse(JSONReport.render(SampleRun.record([SampleRun.repeated(2)]))))
        #expect(item(doc["scenarios"], 0)["repetition"] == .number(2))
    }

    @Test func layoutIsStableAndOrdered() {
        let text = JSONReport.render(SampleRun.all)
        #expect(text == JSONReport.render(SampleRun.all))
        #expect(
            text.hasPrefix(
                """
                {
                  "schema": "flowspec-report",
                  "version": 1,
                  "tool": {"name": "flowspec", "version": "0.1.0"},
                  "startedAt": "2026-11-21T10:00:00Z",
                  "durationSeconds": 2.25,
                  "summary": {"total": 4, "passed": 1, "failed": 2, "skipped": 1},
                  "scenarios": [
                    {
                      "name": "staff logs in",
                """))
        #expect(text.contains(#""durationSeconds": 0.0004,"#), "small numbers in plain notation, not 4e-04")
        #expect(text.hasSuffix("}\n"))
    }

    @Test func emptyRun() throws {
        let doc = try #require(JSONValue.parse(JSONReport.render(SampleRun.record([]))))
        #expect(doc["scenarios"] == .array([]))
        #expect(doc["summary"]["total"] == .number(0))
    }

    /// The shipped JSON Schema describes what the writer writes (a tiny validator below, enough for it).
    @Test func matchesTheShippedSchema() throws {
        let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("schemas/report.schema.json")
        let schema = try #require(JSONValue.parse(try Data(contentsOf: schemaURL)))
        var problems: [String] = []
        MiniSchema.validate(try document(), against: schema, root: schema, at: "$", problems: &problems)
        #expect(problems == [])
        // And the validator has teeth: a report without its summary is refused.
        guard case .object(var broken) = try document() else { Issue.record("not an object"); return }
        broken["summary"] = nil
        broken["version"] = .string("1")
        var brokenProblems: [String] = []
        MiniSchema.validate(.object(broken), against: schema, root: schema, at: "$", problems: &brokenProblems)
        #expect(brokenProblems.contains { $0.contains("summary") })
        #expect(brokenProblems.contains { $0.contains("$.version") })
    }
}

/// The JSON Schema keywords `schemas/report.schema.json` uses: type (string or list), const, enum, required,
/// properties, additionalProperties: false, items, minimum, $ref to `#/$defs/…`.
enum MiniSchema {
    static func validate(
        _ value: JSONValue, against schema: JSONValue, root: JSONValue, at path: String, problems: inout [String]
    ) {
        if let ref = schema["$ref"].stringValue {
            let name = String(ref.dropFirst("#/$defs/".count))
            validate(value, against: root["$defs"][name], root: root, at: path, problems: &problems)
            return
        }
        let types =
            schema["type"].stringValue.map { [$0] } ?? schema["type"].arrayValue?.compactMap(\.stringValue) ?? []
        if !types.isEmpty, !types.contains(where: { matches(value, $0) }) {
            problems.append("\(path): expected \(types.joined(separator: " or ")), got \(value.typeName)")
            return
        }
        if schema["const"] != .null, value != schema["const"] {
            problems.append("\(path): expected \(schema["const"].compactJSON)")
        }
        if let options = schema["enum"].arrayValue, !options.contains(value) {
            problems.append("\(path): not one of \(schema["enum"].compactJSON)")
        }
        if let minimum = schema["minimum"].numberValue, let n = value.numberValue, n < minimum {
            problems.append("\(path): below \(minimum)")
        }
        if let fields = value.objectValue {
            for key in schema["required"].arrayValue?.compactMap(\.stringValue) ?? [] where fields[key] == nil {
                problems.append("\(path): missing \(key)")
            }
            let properties = schema["properties"].objectValue ?? [:]
            for (key, field) in fields {
                if let sub = properties[key] {
                    validate(field, against: sub, root: root, at: "\(path).\(key)", problems: &problems)
                } else if schema["additionalProperties"] == .bool(false) {
                    problems.append("\(path): unexpected \(key)")
                }
            }
        }
        if let items = value.arrayValue, schema["items"] != .null {
            for (i, item) in items.enumerated() {
                validate(item, against: schema["items"], root: root, at: "\(path)[\(i)]", problems: &problems)
            }
        }
    }

    static func matches(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            true
        case ("integer", .number(let n)): n == n.rounded()
        default: false
        }
    }
}
