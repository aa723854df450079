/// File paths handled as text. `URL(fileURLWithPath:)` asks the system for the working directory on every call
/// and builds an object per path, once per file and per flow: a cost every cold `check` paid for nothing
/// (docs/performance.md, Cold start and `check`).
package enum PathText {
    /// `path` made absolute against `workingDirectory`, with `.`, `..` and repeated or trailing slashes removed —
    /// what `URL(fileURLWithPath:).standardizedFileURL.path` gives; symbolic links are left as they are.
    package static func standardized(_ path: String, workingDirectory: String) -> String {
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The folder and the name without its `.yaml` or `.yml` of a flow file given as `folder/name.yaml`, or nil
    /// for any other shape (a bare name, `./name.yaml`, another extension), which needs the working directory or
    /// Foundation's rules for extensions.
    package static func folderAndStem(ofYAML path: String) -> (folder: Substring, stem: Substring)? {
        let parts = path.split(separator: "/")
        guard parts.count >= 2, let name = parts.last, let folder = parts.dropLast().last,
            folder != ".", folder != "..", !name.hasPrefix(".")
        else { return nil }
        for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) {
            return (folder, name.dropLast(suffix.count))
        }
        return nil
    }
}
