/// The program: every flow and session of a run, decoded, checked and compiled, made by
/// one call (`init(documents:)`; `LoadedFiles`, or `ProgramLoader.load` for files, also keeps the scenario and probe
/// documents beside it) and never changed after. Nothing here reads a file: the loading layer (`FlowSpecLoading`)
/// reads and parses, this joins, checks and compiles.
package struct SpecSet: Sendable {
    package let flows: [String: Flow]
    /// Every flow, compiled once for running (also a flow the check found mistakes in: it is never run then).
    package let compiled: [String: CompiledFlow]
    package let sessions: [String: SessionDef]
    /// The compiled flows in name order: a call state refers to its callee by its index here
    /// (`CompiledFlow.callees`), resolved when the program was made.
    package let compiledFlows: [CompiledFlow]
    /// The sessions in name order, each with its refresh flow: a request state refers to its session by its index
    /// here (`CompiledFlow.sessions`).
    package let linkedSessions: [LinkedSession]
    /// What loading and checking found, in file order then name order.
    package let diagnostics: Diagnostics
    /// Every file the program was made from, in the order given.
    package let files: [String]
    /// What joining the documents found, before the checks: a program made from this one (`adding`) checks again.
    private let joinDiagnostics: Diagnostics

    /// The empty program.
    package init() { self.init(documents: []) }

    /// Joins decoded documents in the order given (the first definition of a name wins, a second is an error),
    /// resolves what a flow leaves to its session, checks every flow and session and compiles every flow.
    /// `diagnostics` are the loading layer's own (a path that does not exist), reported first.
    package init(documents: [Document], diagnostics: Diagnostics = Diagnostics()) {
        var parts = Parts(diagnostics: diagnostics)
        for document in documents { parts.join(document) }
        self.init(checking: parts)
    }

    /// Parsed YAML documents by file name, in the order given.
    package init(parsed: [(file: String, root: YAMLNode)]) {
        self.init(documents: parsed.map { SpecSet.decode($0.root, file: $0.file) })
    }

    /// The program of in-memory YAML texts by file name (tools that generate flows, and tests), joined in name
    /// order. Their scenario and probe documents are `LoadedFiles(sources:)`'s.
    package init(sources: [String: String]) {
        self.init(documents: SpecSet.documents(sources: sources))
    }

    /// In-memory YAML texts by file name, parsed and decoded in name order.
    static func documents(sources: [String: String]) -> [Document] {
        sources.sorted(by: { $0.key < $1.key }).map { name, text in
            switch YAMLLoader.load(text: text, file: name) {
            case .success(let root): SpecSet.decode(root, file: name)
            case .failure(let d): Document(file: name, failure: d)
            }
        }
    }

    /// This program with one more parsed document, checked again when it adds a flow or a session.
    package func adding(_ root: YAMLNode, file: String) -> SpecSet {
        adding(SpecSet.decode(root, file: file))
    }

    /// This program with one more decoded document, checked again when it adds a flow or a session.
    package func adding(_ document: Document) -> SpecSet {
        var parts = Parts(self)
        parts.join(document)
        guard parts.flows.count != flows.count || parts.sessions.count != sessions.count else {
            // A scenario, a probe or a mistake: the flows and sessions, and so their checks, are unchanged.
            var diagnostics = diagnostics
            diagnostics.append(
                contentsOf: Diagnostics(Array(parts.diagnostics.items.dropFirst(joinDiagnostics.items.count))))
            return SpecSet(self, files: parts.files, joinDiagnostics: parts.diagnostics, diagnostics: diagnostics)
        }
        return SpecSet(checking: parts)
    }

    /// This program with `session` in place of the session of its name, not checked again: for a run that switches
    /// part of a session off (a probe turns its refresh off).
    package func replacing(_ session: SessionDef) -> SpecSet {
        var sessions = sessions
        sessions[session.name] = session
        let linked = linkedSessions.map {
            $0.name == session.name
                ? LinkedSession(session, refreshFlow: session.refresh.flatMap { compiled[$0.flow.name] }) : $0
        }
        return SpecSet(self, sessions: sessions, linkedSessions: linked)
    }

    private init(checking parts: Parts) {
        var flows = parts.flows
        // What a flow leaves to its session (its store namespace) is resolved before any check reads it.
        let unresolved = SpecSet(
            parts: parts, flows: flows, compiled: [:], compiledFlows: [], linkedSessions: [],
            diagnostics: parts.diagnostics)
        for name in flows.keys.sorted() {
            flows[name]!.namespace = FlowChecker.resolveNamespace(flows[name]!, in: unresolved)
        }
        // The checks only read: every flow is complete before the first is checked.
        let checking = SpecSet(
            parts: parts, flows: flows, compiled: [:], compiledFlows: [], linkedSessions: [],
            diagnostics: parts.diagnostics)
        var diagnostics = parts.diagnostics
        for name in parts.sessions.keys.sorted() {
            SessionChecker.check(parts.sessions[name]!, in: checking, into: &diagnostics)
        }
        // Each flow is checked and compiled on its own, side by side; messages are joined in name order. Calls and
        // sessions are resolved to their places in the program's name-ordered lists while compiling.
        let ordered = flows.keys.sorted().map { flows[$0]! }
        let sessionNames = parts.sessions.keys.sorted()
        let links = CompiledFlow.Links(
            flows: Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($0.element.name, $0.offset) }),
            sessions: Dictionary(uniqueKeysWithValues: sessionNames.enumerated().map { ($0.element, $0.offset) }))
        let done = SideBySide.map(count: ordered.count) { index -> (Diagnostics, CompiledFlow) in
            let flow = ordered[index]
            guard flow.states.count > SideBySide.largeFlowStates else {
                var d = Diagnostics()
                FlowChecker.check(flow, in: checking, into: &d)
                return (d, CompiledFlow(flow, links: links))
            }
            // A large flow is compiled while it is checked: compiling reads only the flow.
            let parts = SideBySide.map(count: 2) { part -> (Diagnostics, CompiledFlow?) in
                guard part == 0 else { return (Diagnostics(), CompiledFlow(flow, links: links)) }
                var d = Diagnostics()
                FlowChecker.check(flow, in: checking, into: &d)
                return (d, nil)
            }
            return (parts[0].0, parts[1].1 ?? CompiledFlow(flow, links: links))
        }
        var compiled: [String: CompiledFlow] = [:]
        for (d, compiledFlow) in done {
            diagnostics.append(contentsOf: d)
            compiled[compiledFlow.name] = compiledFlow
        }
        let linked = sessionNames.map { name in
            let session = parts.sessions[name]!
            return LinkedSession(session, refreshFlow: session.refresh.flatMap { compiled[$0.flow.name] })
        }
        self.init(
            parts: parts, flows: flows, compiled: compiled, compiledFlows: done.map(\.1), linkedSessions: linked,
            diagnostics: diagnostics)
    }

    private init(
        parts: Parts, flows: [String: Flow], compiled: [String: CompiledFlow], compiledFlows: [CompiledFlow],
        linkedSessions: [LinkedSession], diagnostics: Diagnostics
    ) {
        self.flows = flows
        self.compiled = compiled
        self.compiledFlows = compiledFlows
        self.linkedSessions = linkedSessions
        self.sessions = parts.sessions
        self.diagnostics = diagnostics
        self.files = parts.files
        self.joinDiagnostics = parts.diagnostics
    }

    /// A copy with some parts replaced; the rest as in `base`.
    private init(
        _ base: SpecSet, sessions: [String: SessionDef]? = nil, linkedSessions: [LinkedSession]? = nil,
        files: [String]? = nil, joinDiagnostics: Diagnostics? = nil,
        diagnostics: Diagnostics? = nil
    ) {
        self.flows = base.flows
        self.compiled = base.compiled
        self.compiledFlows = base.compiledFlows
        self.linkedSessions = linkedSessions ?? base.linkedSessions
        self.sessions = sessions ?? base.sessions
        self.diagnostics = diagnostics ?? base.diagnostics
        self.files = files ?? base.files
        self.joinDiagnostics = joinDiagnostics ?? base.joinDiagnostics
    }

    /// The documents joined so far, while a program is being made.
    private struct Parts {
        var flows: [String: Flow] = [:]
        var sessions: [String: SessionDef] = [:]
        var diagnostics = Diagnostics()
        var files: [String] = []

        init(diagnostics: Diagnostics = Diagnostics()) { self.diagnostics = diagnostics }

        init(_ program: SpecSet) {
            flows = program.flows
            sessions = program.sessions
            diagnostics = program.joinDiagnostics
            files = program.files
        }

        /// Adds a decoded file: the first definition of a name wins, a second is an error.
        mutating func join(_ document: Document) {
            files.append(document.file)
            diagnostics.append(contentsOf: document.diagnostics)
            switch document.content {
            // Kept beside the program, by `LoadedFiles`; joining only records the file and its diagnostics.
            case .scenario, .probe: break
            case .flow(let flow):
                if let existing = flows[flow.name] {
                    diagnostics.error(
                        flow.location, "a flow named `\(flow.name)` is already defined in \(existing.file)")
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
    }
}
