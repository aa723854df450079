/// Small constructors for JSON Schema (draft-07) fragments, so the schema definitions read like the docs.
///
/// Every property carries a `description`: editors (yaml-language-server) show it on hover and in completion.
/// A description beside a `$ref` is ignored by strict draft-07 validators but kept by yaml-language-server,
/// which is where it matters.
package enum SchemaFragment {
    /// Any single YAML value: the loader reads plain scalars as text or as literals depending on the key.
    package static let scalarTypes: [JSONValue] = ["string", "number", "boolean", "null"].map(JSONValue.string)
    /// Text written plainly may come out of YAML as a number or boolean (`query: { page: 1 }`); the loader takes its text.
    package static let textTypes: [JSONValue] = ["string", "number", "boolean"].map(JSONValue.string)

    package static func ref(_ definition: String, _ description: String) -> JSONValue {
        .object(["$ref": .string("#/definitions/\(definition)"), "description": .string(description)])
    }

    /// A name of something (state, flow, session, outcome, input): always text.
    package static func name(_ description: String, _ extra: [String: JSONValue] = [:]) -> JSONValue {
        typed(["string"], description, extra)
    }

    /// Free text for humans (titles, prompts, expected reasons).
    package static func text(_ description: String) -> JSONValue {
        .object(["type": .array(textTypes), "description": .string(description)])
    }

    /// The same schema, also accepting an empty value (the loader reads an empty mapping as no entries).
    package static func orEmpty(_ schema: JSONValue) -> JSONValue {
        guard case .object(var fields) = schema, case .string(let type)? = fields["type"] else { return schema }
        fields["type"] = .array([.string(type), .string("null")])
        return .object(fields)
    }

    package static func typed(_ types: [String], _ description: String, _ extra: [String: JSONValue] = [:]) -> JSONValue
    {
        var fields = extra
        fields["type"] = types.count == 1 ? .string(types[0]) : .array(types.map(JSONValue.string))
        fields["description"] = .string(description)
        return .object(fields)
    }

    /// A template (`"Bearer ${store.access_token}"`): any single value, read as text.
    package static func template(_ description: String) -> JSONValue {
        .object(["type": .array(scalarTypes), "description": .string(description)])
    }

    /// A plain value is an expression, a quoted one a template (`set`, `store`, `outputs`, `with`, `variables`).
    package static func value(_ description: String) -> JSONValue {
        .object(["type": .array(scalarTypes), "description": .string(description)])
    }

    /// Any JSON value (request bodies, expected values).
    package static func anything(_ description: String) -> JSONValue { .object(["description": .string(description)]) }

    package static func boolean(_ description: String) -> JSONValue { typed(["boolean"], description) }

    package static func constant(_ value: JSONValue, _ description: String) -> JSONValue {
        .object(["const": value, "description": .string(description)])
    }

    package static func integer(_ description: String, _ range: ClosedRange<Int>) -> JSONValue {
        typed(
            ["integer"], description,
            ["minimum": .number(Double(range.lowerBound)), "maximum": .number(Double(range.upperBound))])
    }

    package static func oneOfWords(_ words: [String], _ description: String) -> JSONValue {
        typed(["string"], description, ["enum": .array(words.map(JSONValue.string))])
    }

    package static func list(_ description: String, of items: JSONValue, minItems: Int? = nil) -> JSONValue {
        var extra: [String: JSONValue] = ["items": items]
        if let minItems { extra["minItems"] = .number(Double(minItems)) }
        return typed(["array"], description, extra)
    }

    /// A mapping of free names to values. The loader treats an empty (null) mapping as no entries.
    package static func map(_ description: String, of values: JSONValue, _ extra: [String: JSONValue] = [:])
        -> JSONValue
    {
        var fields = extra
        fields["additionalProperties"] = values
        return typed(["object", "null"], description, fields)
    }

    /// A mapping with a fixed set of keys; any other key is an error, as in the loader.
    package static func object(
        _ description: String, _ properties: [(String, JSONValue)], required: [String] = [],
        _ extra: [String: JSONValue] = [:]
    ) -> JSONValue {
        var fields = extra
        fields["properties"] = .object(Dictionary(uniqueKeysWithValues: properties))
        fields["additionalProperties"] = .bool(false)
        if !required.isEmpty { fields["required"] = .array(required.map(JSONValue.string)) }
        return typed(["object"], description, fields)
    }

    /// `{ "required": [key] }`, the usual branch of a `oneOf` / `anyOf` between alternative keys.
    package static func requires(_ keys: String...) -> JSONValue {
        .object(["required": .array(keys.map(JSONValue.string))])
    }

    /// Names the loader reserves: `propertyNames` that must not be one of `names`.
    package static func notOneOf(_ names: [String], _ extra: [String: JSONValue] = [:]) -> JSONValue {
        var fields = extra
        fields["not"] = .object(["enum": .array(names.sorted().map(JSONValue.string))])
        return .object(fields)
    }

    /// A name `set:` can give a variable: not a reserved root, and without a `.` (a variable is read by its bare
    /// name, so `store.token` or `user.id` could never be read back), as in the loader.
    package static var variableName: JSONValue { notOneOf(FlowSchema.reservedRoots, ["pattern": .string("^[^.]*$")]) }

    /// HTTP methods, case-insensitive as in the loader; the enum branch gives editors the completions.
    package static var method: JSONValue {
        let names = FlowDecoder.methods.sorted()
        let caseInsensitive = names.map { name in name.map { "[\($0)\($0.lowercased())]" }.joined() }
        return .object([
            "description": .string("HTTP method: " + names.joined(separator: ", ") + " (any letter case)"),
            "anyOf": .array([
                .object(["type": .string("string"), "enum": .array(names.map(JSONValue.string))]),
                .object([
                    "type": .string("string"), "pattern": .string("^(" + caseInsensitive.joined(separator: "|") + ")$"),
                ]),
            ]),
        ])
    }

    /// A whole schema document with its draft and hover title.
    package static func document(
        title: String, description: String, root: [String: JSONValue], definitions: [String: JSONValue]
    ) -> JSONValue {
        var fields = root
        fields["$schema"] = .string("http://json-schema.org/draft-07/schema#")
        fields["title"] = .string(title)
        fields["description"] = .string(description)
        fields["definitions"] = .object(definitions)
        return .object(fields)
    }
}
