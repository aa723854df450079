/// The file formats FlowSpec publishes a JSON Schema for (`flowspec schema KIND`).
public enum SchemaKind: String, CaseIterable, Sendable {
    /// Files under `flows/`: flows and sessions.
    case flow
    /// Files under `scenarios/`.
    case scenario

    public var document: JSONValue {
        switch self {
        case .flow: FlowSchema.document
        case .scenario: ScenarioSchema.document
        }
    }

    /// Pretty JSON with sorted keys and a final newline: deterministic, so the files in `schemas/` can be compared.
    public var text: String { document.prettyJSON + "\n" }

    /// Where this repository ships the schema, relative to its root.
    public var shippedPath: String { "schemas/\(rawValue).schema.json" }
}
