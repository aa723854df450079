import FlowSpecLanguage
import FlowSpecScenarios

/// Decodes the `probe:` files a suite found, checking them against its flows and sessions.
public enum ProbeLoader {
    public static func declarations(in suite: Suite, _ diagnostics: inout Diagnostics) -> [ProbeDeclaration] {
        var out: [ProbeDeclaration] = []
        var seen: [String: String] = [:]
        for (file, root) in suite.specs.probeDocuments {
            guard let declaration = ProbeDecoder.decode(root, file: file, specs: suite.specs, &diagnostics) else { continue }
            if let other = seen[declaration.session.name] {
                diagnostics.error(declaration.session.location, "session `\(declaration.session.name)` is already probed by \(other)", hint: "keep one probe file per session")
                continue
            }
            seen[declaration.session.name] = file
            out.append(declaration)
        }
        return out.sorted { $0.session.name < $1.session.name }
    }
}
