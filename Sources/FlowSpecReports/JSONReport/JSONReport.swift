import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

/// The machine-readable report: schema `flowspec-report`, version 1, field by field in docs/reports.md.
/// Other tools depend on this exact shape: add fields freely (version stays 1); removing or renaming one
/// bumps the version.
package enum JSONReport {
    package static let schema = "flowspec-report"
    package static let version = 1

    package static func render(_ run: RunRecord) -> String {
        pretty(document(run))
    }

    static func document(_ run: RunRecord) -> JSONValue {
        .object([
            "schema": .string(schema),
            "version": .number(Double(version)),
            "tool": .object(["name": .string("flowspec"), "version": .string(run.toolVersion)]),
            "startedAt": .string(timestamp(run.startedAt)),
            "durationSeconds": seconds(run.durationSeconds),
            "summary": summary(run.reports.map(\.status.rawValue)),
            "scenarios": .array(run.reports.map(scenario)),
        ])
    }

    /// Counts by status; shared with `merge`, which recomputes it from the merged scenarios.
    static func summary(_ statuses: [String]) -> JSONValue {
        func count(_ status: String) -> JSONValue { .number(Double(statuses.filter { $0 == status }.count)) }
        return .object([
            "total": .number(Double(statuses.count)), "passed": count("passed"), "failed": count("failed"),
            "skipped": count("skipped"),
        ])
    }

    static func scenario(_ report: ScenarioReport) -> JSONValue {
        .object([
            "name": .string(report.name),
            "file": .string(report.file),
            "tags": .array(report.tags.map(JSONValue.string)),
            "status": .string(report.status.rawValue),
            "repetition": report.repetition.map { .number(Double($0)) } ?? .null,
            "durationSeconds": seconds(report.durationSeconds),
            "infrastructureFailure": .bool(report.infrastructureFailure),
            "failures": .array(report.failures.map(JSONValue.string)),
            "skipReason": report.skipReason.map(JSONValue.string) ?? .null,
            "runs": .array(report.runs.map(run)),
            "exchanges": .array(report.exchanges.map(exchange)),
        ])
    }

    static func run(_ trace: FlowRunTrace) -> JSONValue {
        .object([
            "id": .number(Double(trace.id)),
            "flow": .string(trace.flowName),
            "parent": trace.parent.map { .number(Double($0)) } ?? .null,
            "outcome": trace.outcome.map(JSONValue.string) ?? .null,
            "success": .bool(trace.success),
            "visits": .array(
                trace.visits.map { visit in
                    .object([
                        "state": .string(trace.state(visit).name),
                        "edge": visit.edge.map { .number(Double($0)) } ?? .null,
                        "falseGuards": .array(visit.falseGuards.map { .number(Double($0)) }),
                    ])
                }),
        ])
    }

    static func exchange(_ e: ExchangeRecord) -> JSONValue {
        func headers(_ list: [ExchangeRecord.Header]) -> JSONValue {
            .array(list.map { .object(["name": .string($0.name), "value": .string($0.value)]) })
        }
        let response: JSONValue =
            e.status.map { status in
                .object([
                    "status": .number(Double(status)), "headers": headers(e.responseHeaders),
                    "body": e.responseBody.map(JSONValue.string) ?? .null,
                ])
            } ?? .null
        return .object([
            "run": e.run.map { .number(Double($0)) } ?? .null,
            "visit": e.visit.map { .number(Double($0)) } ?? .null,
            "flow": .string(e.flow),
            "state": .string(e.state),
            "method": .string(e.method),
            "url": .string(e.url),
            "durationSeconds": seconds(e.durationSeconds),
            "request": .object([
                "headers": headers(e.requestHeaders), "body": e.requestBody.map(JSONValue.string) ?? .null,
            ]),
            "response": response,
            "failure": e.failure.map(JSONValue.string) ?? (e.status == nil ? .string("no response") : .null),
        ])
    }

    /// Microsecond precision: enough for timings, and no `0.30000000000000004` noise.
    static func seconds(_ value: Double) -> JSONValue {
        .number(value.isFinite ? (max(0, value) * 1_000_000).rounded() / 1_000_000 : 0)
    }

    /// `2026-11-21T10:00:00Z`: ISO 8601, UTC, whole seconds (what `ISO8601DateFormatter` reads by default).
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
            c.second ?? 0)
    }

    static func parseTimestamp(_ text: String) -> Date? {
        try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    // MARK: Layout

    /// Keys in the order the contract lists them, per kind of object; keys not listed (added by a later
    /// version) follow in sorted order. A merged report is laid out exactly like one from `run`.
    static let keyOrder: [String: [String]] = [
        "": ["schema", "version", "tool", "startedAt", "durationSeconds", "summary", "scenarios"],
        "tool": ["name", "version"],
        "summary": ["total", "passed", "failed", "skipped"],
        "scenarios": [
            "name", "file", "tags", "status", "repetition", "durationSeconds", "infrastructureFailure", "failures",
            "skipReason", "runs", "exchanges",
        ],
        "runs": ["id", "flow", "parent", "outcome", "success", "visits"],
        "visits": ["state", "edge", "falseGuards"],
        "exchanges": [
            "run", "visit", "flow", "state", "method", "url", "durationSeconds", "request", "response", "failure",
        ],
        "request": ["headers", "body"],
        "response": ["status", "headers", "body"],
        "headers": ["name", "value"],
    ]

    /// Indented by two spaces, keys in contract order, ending in a newline. Empty lists stay on one line.
    static func pretty(_ value: JSONValue) -> String {
        var out = ""
        write(value, context: "", indent: "", into: &out)
        return out + "\n"
    }

    private static func write(_ value: JSONValue, context: String, indent: String, into out: inout String) {
        let inner = indent + "  "
        switch value {
        case _ where fitsOnOneLine(value):
            out += oneLine(value, context: context)
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                write(item, context: context, indent: inner, into: &out)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let fields) where !fields.isEmpty:
            let known = keyOrder[context] ?? []
            let keys = known.filter { fields[$0] != nil } + fields.keys.filter { !known.contains($0) }.sorted()
            out += "{\n"
            for (i, key) in keys.enumerated() {
                out += inner + JSONValue.string(key).compactJSON + ": "
                write(fields[key]!, context: key, indent: inner, into: &out)
                out += i == keys.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        default:
            out += scalar(value)
        }
    }

    /// Numbers with at most six decimals in plain notation (`0.000033`, not `3.3e-05`); everything else as JSON.
    private static func scalar(_ value: JSONValue) -> String {
        guard case .number(let n) = value, n.isFinite, n != n.rounded(), abs(n) < 1e9,
            (n * 1_000_000).rounded() / 1_000_000 == n
        else { return value.compactJSON }
        var text = String(format: "%.6f", n)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// Visits, headers and short tag lists read best on one line: objects of scalars (or empty lists),
    /// and lists of scalars that stay short.
    private static func fitsOnOneLine(_ value: JSONValue) -> Bool {
        func isLeaf(_ v: JSONValue) -> Bool {
            if case .object = v { return false }
            if case .array(let items) = v { return items.allSatisfy { $0.arrayValue == nil && $0.objectValue == nil } }
            return true
        }
        switch value {
        case .object(let fields): return !fields.isEmpty && fields.values.allSatisfy(isLeaf) && fields.count <= 4
        case .array(let items): return items.allSatisfy(isLeaf) && value.compactJSON.count <= 80
        default: return true
        }
    }

    private static func oneLine(_ value: JSONValue, context: String) -> String {
        switch value {
        case .object(let fields):
            let known = keyOrder[context] ?? []
            let keys = known.filter { fields[$0] != nil } + fields.keys.filter { !known.contains($0) }.sorted()
            return "{"
                + keys.map { JSONValue.string($0).compactJSON + ": " + oneLine(fields[$0]!, context: $0) }.joined(
                    separator: ", ") + "}"
        case .array(let items):
            return "[" + items.map { oneLine($0, context: context) }.joined(separator: ", ") + "]"
        default:
            return scalar(value)
        }
    }
}
