import FlowSpecLanguage

/// A variables file (`--vars-file`): a YAML or JSON mapping of run-variable names to values. Scalars only —
/// a URL, an email, a shell command — because variables are substituted into text.
public enum VarsFile {
    public static func load(_ path: String) -> Result<[String: JSONValue], Diagnostic> {
        let root: YAMLNode
        switch YAMLLoader.load(file: path) {
        case .success(let node): root = node
        case .failure(let diagnostic): return .failure(diagnostic)
        }
        guard let pairs = root.mapping else {
            return .failure(.error(root.location, "a variables file maps names to values, found \(root.kindName)",
                                   hint: "e.g. `repairminder_url: https://staging.example.com`"))
        }
        var vars: [String: JSONValue] = [:]
        for pair in pairs {
            guard let name = pair.key.scalar else { return .failure(.error(pair.key.location, "variable names are plain words")) }
            guard pair.value.scalar != nil || pair.value.json == .null else {
                return .failure(.error(pair.value.location, "variable `\(name)` must be a single value (text or number), found \(pair.value.kindName)"))
            }
            vars[name] = pair.value.json
        }
        return .success(vars)
    }
}
