import Foundation

/// Every flow, session and scenario document found under some paths, loaded once.
public struct SpecSet: Sendable {
    public private(set) var flows: [String: Flow] = [:]
    /// The flows ready to run, made by `check()`.
    public private(set) var compiled: [String: CompiledFlow] = [:]
    public var sessions: [String: SessionDef] = [:]
    /// Scenario files are decoded by the scenarios module; the language only finds them.
    public var scenarioDocuments: [(file: String, root: YAMLNode)] = []
    /// Probe declarations (`probe:` files) are decoded by the probe module, which knows scenario inputs.
    public var probeDocuments: [(file: String, root: YAMLNode)] = []
    public var diagnostics = Diagnostics()
    public var files: [String] = []

    public init() {}

    /// YAML files under `paths` (files or folders, recursively), sorted for stable output.
    public static func yamlFiles(in paths: [String], _ d: inout Diagnostics) -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                d.error(SourceLocation(file: path, line: 1, column: 1), "no such file or folder")
                continue
            }
            if !isDirectory.boolValue { out.append(path); continue }
            guard let enumerator = fm.enumerator(atPath: path) else { continue }
            var found: [String] = []
            for case let relative as String in enumerator where relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                found.append((path as NSString).appendingPathComponent(relative))
            }
            out.append(contentsOf: found.sorted())
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    public mutating func load(paths: [String]) {
        for file in SpecSet.yamlFiles(in: paths, &diagnostics) { load(file: file) }
    }

    public mutating func load(file: String) {
        files.append(file)
        switch YAMLLoader.load(file: file) {
        case .failure(let diagnostic):
            diagnostics.add(diagnostic)
        case .success(let root):
            add(root, file: file)
        }
    }

    public mutating func add(_ root: YAMLNode, file: String) {
        let keys = root.mapping?.compactMap { $0.key.scalar } ?? []
        if keys.contains("scenario") {
            scenarioDocuments.append((file, root))
        } else if keys.contains("probe") {
            probeDocuments.append((file, root))
        } else if keys.contains("flow") {
            guard let flow = FlowDecoder.decode(root, file: file, &diagnostics) else { return }
            if let existing = flows[flow.name] {
                diagnostics.error(flow.location, "a flow named `\(flow.name)` is already defined in \(existing.file)")
                return
            }
            flows[flow.name] = flow
        } else if keys.contains("session") {
            guard let session = SessionDecoder.decode(root, file: file, &diagnostics) else { return }
            if let existing = sessions[session.name] {
                diagnostics.error(session.location, "a session named `\(session.name)` is already defined in \(existing.file)")
                return
            }
            sessions[session.name] = session
        } else {
            let guess = keys.lazy.compactMap { Suggestion.closest(to: $0, in: ["flow", "session", "scenario", "probe"]) }.first
            diagnostics.error(root.location, "not a FlowSpec file: expected a top-level `flow:`, `session:`, `scenario:` or `probe:` key",
                              hint: guess.map { "did you mean `\($0)`?" })
        }
    }

    /// Resolves what a flow leaves to its session (its store namespace), runs every static check over the loaded
    /// flows and sessions (scenarios are checked by their module), then compiles the flows for running.
    /// The checks only read: every flow is complete before the first is checked.
    public mutating func check() {
        for name in flows.keys.sorted() { flows[name]!.namespace = FlowChecker.resolveNamespace(flows[name]!, in: self) }
        for name in sessions.keys.sorted() { SessionChecker.check(sessions[name]!, in: self, into: &diagnostics) }
        for name in flows.keys.sorted() { FlowChecker.check(flows[name]!, in: self, into: &diagnostics) }
        compiled = flows.mapValues(CompiledFlow.init)
    }

    /// Loads and checks flow folders in one go.
    public static func loadChecked(paths: [String]) -> SpecSet {
        var set = SpecSet()
        set.load(paths: paths)
        set.check()
        return set
    }
}

extension SpecSet {
    /// Loads and checks in-memory YAML documents by file name (tools that generate flows, and tests).
    public static func fromSources(_ files: [String: String]) -> SpecSet {
        var set = SpecSet()
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            set.files.append(name)
            switch YAMLLoader.load(text: text, file: name) {
            case .success(let root): set.add(root, file: name)
            case .failure(let d): set.diagnostics.add(d)
            }
        }
        set.check()
        return set
    }
}
