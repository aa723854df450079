/// The file formats FlowSpec publishes a JSON Schema for (`flowspec schema KIND`).
package enum SchemaKind: String, CaseIterable, Sendable {
    /// Files under `flows/`: flows and sessions.
    case flow
    /// Files under `scenarios/`.
    case scenario

    /// `probePromises`: the probe catalogue's promises; the flow schema lists them under a probe file's `promises`.
    package func document(probePromises: [(String, JSONValue)]) -> JSONValue {
        switch self {
        case .flow: FlowSchema.document(probePromises: probePromises)
        case .scenario: ScenarioSchema.document
        }
    }

    /// Pretty JSON with sorted keys and a final newline: deterministic, so the files in `schemas/` can be compared.
    package func text(probePromises: [(String, JSONValue)]) -> String {
        document(probePromises: probePromises).prettyJSON + "\n"
    }

    /// Where this repository ships the schema, relative to its root.
    package var shippedPath: String { "schemas/\(rawValue).schema.json" }
}
