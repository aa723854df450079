import FlowSpecLanguage
import FlowSpecScenarios

/// Reads a `probe:` file and checks it against the loaded flows and sessions.
public enum ProbeDecoder {
    static let keys = ["probe", "title", "login", "protected", "logout", "refused", "refresh_token_key", "promises"]

    public static func decode(_ root: YAMLNode, file: String, specs: SpecSet, _ d: inout Diagnostics) -> ProbeDeclaration? {
        guard let f = Fields(root, what: "a probe file", allowed: keys, diagnostics: &d) else { return nil }
        let session = f.string("probe", required: true, &d, hint: "name the session it probes, e.g. `probe: repairminder.staff`")
        if let session, specs.sessions[session.name] == nil {
            d.error(session.location, "unknown session `\(session.name)`", hint: Suggestion.didYouMean(session.name, in: specs.sessions.keys.sorted()))
        }
        var login: NameRef?
        var loginInputs = ScenarioInputs()
        var loginInterval: Template?
        if let node = f.require("login", &d, hint: "e.g. `login: { flow: repairminder.staff-password-2fa, inputs: { … } }`"),
           let l = Fields(node, what: "`login`", allowed: ["flow", "inputs", "interval"], diagnostics: &d) {
            login = l.string("flow", required: true, &d)
            loginInputs = ScenarioDecoder.decodeInputs(l["inputs"], &d)
            loginInterval = l["interval"].flatMap { ExprReader.template($0, what: "`login.interval`", &d) }
        }
        if let login { checkFlow(login, specs, &d) }
        var protected: [NameRef] = []
        for item in f.list("protected", &d) ?? [] {
            guard let name = item.scalar else { d.error(item.location, "`protected` lists flow names, found \(item.kindName)"); continue }
            let ref = NameRef(name, at: item.location)
            checkFlow(ref, specs, &d)
            if let session, let flow = specs.flows[name], flow.session?.name != session.name {
                d.error(item.location, "flow `\(name)` does not use the session `\(session.name)`",
                        hint: "a protected flow sends the session's token: give it `session: \(session.name)`")
            }
            protected.append(ref)
        }
        if f.missing("protected") {
            d.error(root.location, "a probe file is missing the required key `protected`", hint: "list the flows that must refuse a bad token, e.g. `protected: [repairminder.me]`")
        }
        let logout = f.string("logout", &d)
        if let logout { checkFlow(logout, specs, &d) }
        var refused: [Int] = []
        for item in f.list("refused", &d) ?? [] {
            guard let text = item.scalar, let status = Int(text), (400...499).contains(status) else {
                d.error(item.location, "`refused` lists 4xx statuses, found `\(item.scalar ?? item.kindName)`"); continue
            }
            refused.append(status)
        }
        let refreshKey = f.string("refresh_token_key", &d)?.name ?? "refresh_token"
        var promises: [ProbeKind: ProbeDeclaration.Promise] = [:]
        for (name, value) in f.map("promises", &d) ?? [] {
            guard let kind = ProbeKind(rawValue: name.name) else {
                d.error(name.location, "unknown promise `\(name.name)`",
                        hint: Suggestion.didYouMean(name.name, in: ProbeKind.allCases.map(\.rawValue)) ?? "promises: " + ProbeKind.allCases.map(\.rawValue).joined(separator: ", "))
                continue
            }
            if let promise = decodePromise(kind, value, at: name.location, specs: specs, &d) { promises[kind] = promise }
        }
        if let kind = [ProbeKind.logoutRevokes].first(where: { promises[$0] != nil }), logout == nil, let promise = promises[kind] {
            d.error(promise.location, "`\(kind.rawValue)` needs the `logout:` flow", hint: "add `logout: <the flow that signs out>`")
        }
        if let session, let def = specs.sessions[session.name], def.refresh == nil {
            for kind in [ProbeKind.rotation, .reuseDetection, .atomicRotation, .logoutRevokes] {
                if let promise = promises[kind] { d.error(promise.location, "`\(kind.rawValue)` needs a refresh flow, and session `\(session.name)` has no `refresh:`") }
            }
        }
        guard let session, let login else { return nil }
        return ProbeDeclaration(session: session, file: file, location: root.location, login: login, loginInputs: loginInputs, loginInterval: loginInterval,
                                protected: protected, logout: logout, refused: refused, refreshTokenKey: refreshKey, promises: promises)
    }

    static func decodePromise(_ kind: ProbeKind, _ node: YAMLNode, at location: SourceLocation, specs: SpecSet, _ d: inout Diagnostics) -> ProbeDeclaration.Promise? {
        if let source = node.scalar {
            if kind == .isolation { d.error(node.location, "`isolation` needs `from:`, the sessions whose tokens must be refused") }
            return ProbeDeclaration.Promise(kind: kind, source: source, location: location)
        }
        var allowed = ["source", "requires"]
        switch kind {
        case .reuseDetection: allowed += ["revokes_family", "grace", "reuse_interval"]
        case .atomicRotation: allowed += ["grace", "burst"]
        case .isolation: allowed += ["from"]
        case .expiry: allowed += ["leeway"]
        default: break
        }
        guard let f = Fields(node, what: "promise `\(kind.rawValue)`", allowed: allowed, diagnostics: &d) else { return nil }
        guard let source = f.string("source", required: true, &d, hint: "say where the backend promises this, e.g. its API documentation") else { return nil }
        var promise = ProbeDeclaration.Promise(kind: kind, source: source.name, location: location)
        promise.revokesFamily = f.bool("revokes_family", &d) ?? false
        promise.requires = f.string("requires", &d)
        if let grace = f.string("grace", &d) {
            switch grace.name {
            case "none": break
            case "parent_of_active": promise.parentOfActiveGrace = true
            default: d.error(grace.location, "`grace` is `none` or `parent_of_active`, found `\(grace.name)`")
            }
        }
        promise.reuseInterval = f["reuse_interval"].flatMap { ExprReader.template($0, what: "`reuse_interval`", &d) }
        promise.leeway = f["leeway"].flatMap { ExprReader.template($0, what: "`leeway`", &d) }
        if let burst = f.int("burst", &d, range: 2...20) { promise.burst = burst }
        for item in f.list("from", &d) ?? [] {
            guard let name = item.scalar else { continue }
            if specs.sessions[name] == nil { d.error(item.location, "unknown session `\(name)`", hint: Suggestion.didYouMean(name, in: specs.sessions.keys.sorted())) }
            promise.from.append(NameRef(name, at: item.location))
        }
        if kind == .isolation, promise.from.isEmpty { d.error(location, "`isolation` needs `from:`, the sessions whose tokens must be refused") }
        return promise
    }

    static func checkFlow(_ ref: NameRef, _ specs: SpecSet, _ d: inout Diagnostics) {
        if specs.flows[ref.name] == nil {
            d.error(ref.location, "unknown flow `\(ref.name)`", hint: Suggestion.didYouMean(ref.name, in: specs.flows.keys.sorted()))
        }
    }
}
