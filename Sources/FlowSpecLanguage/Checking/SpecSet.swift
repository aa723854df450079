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
        for path in paths {
            guard let isFolder = SourceFiles.isFolder(path) else {
                d.error(SourceLocation(file: path, line: 1, column: 1), "no such file or folder")
                continue
            }
            guard isFolder else { out.append(path); continue }
            out.append(contentsOf: SourceFiles.yamlFiles(under: path) ?? [])
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    public mutating func load(paths: [String]) {
        load(files: SpecSet.yamlFiles(in: paths, &diagnostics))
    }

    public mutating func load(file: String) { load(files: [file]) }

    /// Reads and decodes the files side by side (each on its own: YAML parsing and decoding are most of a cold
    /// `check`), then joins them in the order given, so names, duplicates and messages come out as one by one.
    public mutating func load(files: [String]) {
        for loaded in SideBySide.map(count: files.count, { SpecSet.read(file: files[$0]) }) { join(loaded) }
    }

    public mutating func add(_ root: YAMLNode, file: String) {
        join(SpecSet.decode(root, file: file))
    }

    /// One file, read and decoded without the rest of the set.
    struct LoadedFile: Sendable {
        enum Document: Sendable { case flow(Flow), session(SessionDef), scenario(YAMLNode), probe(YAMLNode), nothing }
        var file: String
        var document: Document
        var diagnostics = Diagnostics()
    }

    static func read(file: String) -> LoadedFile {
        switch YAMLLoader.load(file: file) {
        case .failure(let diagnostic):
            var loaded = LoadedFile(file: file, document: .nothing)
            loaded.diagnostics.add(diagnostic)
            return loaded
        case .success(let root):
            return decode(root, file: file)
        }
    }

    static func decode(_ root: YAMLNode, file: String) -> LoadedFile {
        var d = Diagnostics()
        let keys = root.mapping?.compactMap { $0.key.scalar } ?? []
        let document: LoadedFile.Document
        if keys.contains("scenario") {
            document = .scenario(root)
        } else if keys.contains("probe") {
            document = .probe(root)
        } else if keys.contains("flow") {
            document = FlowDecoder.decode(root, file: file, &d).map(LoadedFile.Document.flow) ?? .nothing
        } else if keys.contains("session") {
            document = SessionDecoder.decode(root, file: file, &d).map(LoadedFile.Document.session) ?? .nothing
        } else if guessFlowSpecKey(keys) == nil, let pairs = root.mapping, !pairs.isEmpty,
            pairs.allSatisfy({ $0.value.scalar != nil })
        {
            // A flat map of names to single values beside the flows is a variables file (`vars.example.yaml`): a
            // folder a user checks holds one naturally. Not an error, but said, so a misnamed flow is not lost.
            d.warning(
                root.location,
                "not checked: this looks like a variables file (names to single values), not a flow, session, scenario or probe",
                hint:
                    "give it to `run`, `exec` or `probe` with --vars-file; a FlowSpec file starts with `flow:`, `session:`, `scenario:` or `probe:`"
            )
            document = .nothing
        } else {
            let guess = guessFlowSpecKey(keys)
            d.error(
                root.location,
                "not a FlowSpec file: expected a top-level `flow:`, `session:`, `scenario:` or `probe:` key",
                hint: guess.map { "did you mean `\($0)`?" })
            document = .nothing
        }
        return LoadedFile(file: file, document: document, diagnostics: d)
    }

    /// The FlowSpec top-level key that one of `keys` is a misspelling of (`flwo` → `flow`), if any.
    static func guessFlowSpecKey(_ keys: [String]) -> String? {
        keys.lazy.compactMap { Suggestion.closest(to: $0, in: ["flow", "session", "scenario", "probe"]) }.first
    }

    /// Adds a decoded file: the first definition of a name wins, a second is an error.
    mutating func join(_ loaded: LoadedFile) {
        files.append(loaded.file)
        diagnostics.append(contentsOf: loaded.diagnostics)
        switch loaded.document {
        case .scenario(let root): scenarioDocuments.append((loaded.file, root))
        case .probe(let root): probeDocuments.append((loaded.file, root))
        case .flow(let flow):
            if let existing = flows[flow.name] {
                diagnostics.error(flow.location, "a flow named `\(flow.name)` is already defined in \(existing.file)")
                return
            }
            flows[flow.name] = flow
        case .session(let session):
            if let existing = sessions[session.name] {
                diagnostics.error(
                    session.location, "a session named `\(session.name)` is already defined in \(existing.file)")
                return
            }
            sessions[session.name] = session
        case .nothing: break
        }
    }

    /// Resolves what a flow leaves to its session (its store namespace), runs every static check over the loaded
    /// flows and sessions (scenarios are checked by their module), then compiles the flows for running.
    /// The checks only read: every flow is complete before the first is checked.
    public mutating func check() {
        for name in flows.keys.sorted() {
            flows[name]!.namespace = FlowChecker.resolveNamespace(flows[name]!, in: self)
        }
        for name in sessions.keys.sorted() { SessionChecker.check(sessions[name]!, in: self, into: &diagnostics) }
        // Each flow is checked and compiled on its own, side by side; messages are joined in name order as before.
        let checking = self
        let ordered = flows.keys.sorted().map { flows[$0]! }
        let done = SideBySide.map(count: ordered.count) { index -> (Diagnostics, CompiledFlow) in
            let flow = ordered[index]
            guard flow.states.count > SideBySide.largeFlowStates else {
                var d = Diagnostics()
                FlowChecker.check(flow, in: checking, into: &d)
                return (d, CompiledFlow(flow))
            }
            // A large flow is compiled while it is checked: compiling reads only the flow.
            let parts = SideBySide.map(count: 2) { part -> (Diagnostics, CompiledFlow?) in
                guard part == 0 else { return (Diagnostics(), CompiledFlow(flow)) }
                var d = Diagnostics()
                FlowChecker.check(flow, in: checking, into: &d)
                return (d, nil)
            }
            return (parts[0].0, parts[1].1 ?? CompiledFlow(flow))
        }
        var compiled: [String: CompiledFlow] = [:]
        for (d, compiledFlow) in done {
            diagnostics.append(contentsOf: d)
            compiled[compiledFlow.name] = compiledFlow
        }
        self.compiled = compiled
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
            switch YAMLLoader.load(text: text, file: name) {
            case .success(let root): set.add(root, file: name)
            case .failure(let d):
                set.files.append(name)
                set.diagnostics.add(d)
            }
        }
        set.check()
        return set
    }
}
