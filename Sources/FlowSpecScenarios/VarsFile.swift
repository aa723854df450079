import FlowSpecLanguage
import FlowSpecLoading

/// A variables file (`--vars-file`): a YAML or JSON mapping of run-variable names to values. Scalars only —
/// a URL, an email, a shell command — because variables are substituted into text.
package enum VarsFile {
    package static func load(_ path: String) -> Result<[String: JSONValue], Diagnostic> {
        let root: YAMLNode
        switch YAMLLoader.load(file: path) {
        case .success(let node): root = node
        case .failure(let diagnostic): return .failure(diagnostic)
        }
        guard let pairs = root.mapping else {
            return .failure(
                .error(
                    root.location, "a variables file maps names to values, found \(root.kindName)",
                    hint: "e.g. `repairminder_url: https://staging.example.com`"))
        }
        var vars: [String: JSONValue] = [:]
        for pair in pairs {
            guard let name = pair.key.scalar else {
                return .failure(.error(pair.key.location, "variable names are plain words"))
            }
            guard pair.value.scalar != nil || pair.value.json == .null else {
                return .failure(
                    .error(
                        pair.value.location,
                        "variable `\(name)` must be a single value (text or number), found \(pair.value.kindName)"))
            }
            let value = pair.value.json
            // A URL left unquoted can read as a number (`8080`), a boolean or nothing, and the flow would then send
            // its requests to `8080/auth/login`: said here, at the value, rather than as each flow's failure.
            if Self.namesURL(name), value.stringValue == nil {
                return .failure(
                    .error(
                        pair.value.location, "variable `\(name)` is a URL, found \(Self.described(value))",
                        hint: "write the whole URL as text, e.g. `\(name): http://127.0.0.1:8080`"))
            }
            vars[name] = value
        }
        return .success(vars)
    }

    /// `repairminder_url`, `url`: the variables flows read as a base URL are named so.
    static func namesURL(_ name: String) -> Bool { name == "url" || name.hasSuffix("_url") }

    private static func described(_ value: JSONValue) -> String {
        switch value {
        case .null: "no value"
        case .bool(let flag): "the boolean \(flag)"
        case .number: "the number \(value.compactJSON)"
        default: value.compactJSON
        }
    }
}
