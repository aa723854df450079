import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

/// Decodes the `probe:` files a suite found, checking them against its flows and sessions.
package enum ProbeLoader {
    /// `under`: only probe files at or below these paths (the rest of the flows folder is loaded for reference).
    package static func declarations(in suite: Suite, under paths: [String]? = nil, _ diagnostics: inout Diagnostics)
        -> [ProbeDeclaration]
    {
        var out: [ProbeDeclaration] = []
        var seen: [String: String] = [:]
        let roots = paths?.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        for (file, root) in suite.probeDocuments {
            if let roots {
                let path = URL(fileURLWithPath: file).standardizedFileURL.path
                guard roots.contains(where: { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
                    continue
                }
            }
            guard let declaration = ProbeDecoder.decode(root, file: file, specs: suite.specs, &diagnostics) else {
                continue
            }
            if let other = seen[declaration.session.name] {
                diagnostics.error(
                    declaration.session.location, "session `\(declaration.session.name)` is already probed by \(other)",
                    hint: "keep one probe file per session")
                continue
            }
            seen[declaration.session.name] = file
            out.append(declaration)
        }
        return out.sorted { $0.session.name < $1.session.name }
    }
}
