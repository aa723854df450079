import FlowSpecLanguage
import FlowSpecScenarios

/// Reads a `probe:` file and checks it against the loaded flows and sessions.
package enum ProbeDecoder {
    static let keys = ["probe", "title", "login", "protected", "logout", "refused", "refresh_token_key", "promises"]

    package static func decode(_ root: YAMLNode, file: String, specs: SpecSet, _ d: inout Diagnostics)
        -> ProbeDeclaration?
    {
        guard let f = Fields(root, what: "a probe file", allowed: keys, diagnostics: &d) else { return nil }
        let session = f.string(
            "probe", required: true, &d, hint: "name the session it probes, e.g. `probe: repairminder.staff`")
        if let session, specs.sessions[session.name] == nil {
            d.error(
                session.location, "unknown session `\(session.name)`",
                hint: Suggestion.didYouMean(session.name, in: specs.sessions.keys.sorted()))
        }
        var login: NameRef?
        var loginInputs = ScenarioInputs()
        var loginInterval: Template?
        if let node = f.require(
            "login", &d, hint: "e.g. `login: { flow: repairminder.staff-password-2fa, inputs: { … } }`"),
            let l = Fields(node, what: "`login`", allowed: ["flow", "inputs", "interval"], diagnostics: &d)
        {
            login = l.string("flow", required: true, &d)
            loginInputs = ScenarioDecoder.decodeInputs(l["inputs"], &d)
            loginInterval = l["interval"].flatMap { ExprReader.template($0, what: "`login.interval`", &d) }
        }
        if let login { checkFlow(login, specs, &d) }
        var protected: [NameRef] = []
        for item in f.list("protected", &d) ?? [] {
            guard let name = item.scalar else {
                d.error(item.location, "`protected` lists flow names, found \(item.kindName)"); continue
            }
            let ref = NameRef(name, at: item.location)
            checkFlow(ref, specs, &d)
            if let session, let flow = specs.flows[name], flow.session?.name != session.name {
                d.error(
                    item.location, "flow `\(name)` does not use the session `\(session.name)`",
                    hint: "a protected flow sends the session's token: give it `session: \(session.name)`")
            }
            protected.append(ref)
        }
        if f.missing("protected") {
            d.error(
                root.location, "a probe file is missing the required key `protected`",
                hint: "list the flows that must refuse a bad token, e.g. `protected: [repairminder.me]`")
        }
        var logout: NameRef?
        var logoutAnswers: [Int] = []
        if let node = f["logout"] {
            if node.scalar != nil {
                logout = f.string("logout", &d)
            } else if let l = Fields(node, what: "`logout`", allowed: ["flow", "answers"], diagnostics: &d) {
                logout = l.string(
                    "flow", required: true, &d, hint: "e.g. `logout: { flow: repairminder.logout, answers: [204] }`")
                for item in l.list("answers", &d) ?? [] {
                    guard let text = item.scalar, let status = Int(text), (200...499).contains(status) else {
                        d.error(
                            item.location,
                            "`answers` lists the statuses of a logout that worked (2xx to 4xx), found `\(item.scalar ?? item.kindName)`"
                        ); continue
                    }
                    logoutAnswers.append(status)
                }
            }
        }
        if let logout { checkFlow(logout, specs, &d) }
        var refused: [Int] = []
        for item in f.list("refused", &d) ?? [] {
            guard let text = item.scalar, let status = Int(text), (400...499).contains(status) else {
                d.error(item.location, "`refused` lists 4xx statuses, found `\(item.scalar ?? item.kindName)`");
                continue
            }
            refused.append(status)
        }
        let refreshKey = f.string("refresh_token_key", &d)?.name ?? "refresh_token"
        var promises: [ProbeKind: ProbeDeclaration.Promise] = [:]
        let names = ProbeKind.allCases.map(\.rawValue)
        for (name, value) in f.map("promises", &d) ?? [] {
            guard let kind = ProbeKind(rawValue: name.name) else {
                d.error(
                    name.location, "unknown promise `\(name.name)`",
                    hint: Suggestion.didYouMean(name.name, in: names) ?? "promises: " + names.joined(separator: ", "))
                continue
            }
            if let promise = decodePromise(kind, value, at: name.location, specs: specs, &d) {
                kind.attack.check(promise, &d)
                promises[kind] = promise
            }
        }
        for (kind, promise) in promises.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if kind.attack.needs.contains(.logoutFlow), logout == nil {
                d.error(
                    promise.location, "`\(kind.rawValue)` needs the `logout:` flow",
                    hint: "add `logout: <the flow that signs out>`")
            }
            if kind.attack.needs.contains(.refreshFlow), let session, let def = specs.sessions[session.name],
                def.refresh == nil
            {
                d.error(
                    promise.location,
                    "`\(kind.rawValue)` needs a refresh flow, and session `\(session.name)` has no `refresh:`")
            }
        }
        guard let session, let login else { return nil }
        return ProbeDeclaration(
            session: session, file: file, location: root.location, login: login, loginInputs: loginInputs,
            loginInterval: loginInterval,
            protected: protected, logout: logout, logoutAnswers: logoutAnswers, refused: refused,
            refreshTokenKey: refreshKey, promises: promises)
    }

    /// A promise: its source alone, or a mapping with the source, `requires` and the options its attack declares.
    static func decodePromise(
        _ kind: ProbeKind, _ node: YAMLNode, at location: SourceLocation, specs: SpecSet, _ d: inout Diagnostics
    ) -> ProbeDeclaration.Promise? {
        let options = kind.attack.options
        if let source = node.scalar {
            for option in options where option.required {
                d.error(
                    node.location, "`\(kind.rawValue)` needs `\(option.key)`: \(option.description)",
                    hint: "write the promise as a mapping: `\(kind.rawValue): { source: \"…\", \(option.key): … }`")
            }
            return ProbeDeclaration.Promise(kind: kind, source: source, location: location)
        }
        guard
            let f = Fields(
                node, what: "promise `\(kind.rawValue)`", allowed: ["source", "requires"] + options.map(\.key),
                diagnostics: &d)
        else { return nil }
        guard
            let source = f.string(
                "source", required: true, &d, hint: "say where the backend promises this, e.g. its API documentation")
        else { return nil }
        var promise = ProbeDeclaration.Promise(kind: kind, source: source.name, location: location)
        promise.requires = f.string("requires", &d)
        for option in options {
            guard let value = f[option.key] else {
                if option.required {
                    d.error(
                        location, "`\(kind.rawValue)` needs `\(option.key)`: \(option.description)",
                        hint: "add `\(option.key): …` to the promise `\(kind.rawValue)`")
                }
                continue
            }
            promise.written.insert(option.key)
            promise.options[option.key] = option.decode(value, f, specs: specs, &d)
        }
        return promise
    }

    static func checkFlow(_ ref: NameRef, _ specs: SpecSet, _ d: inout Diagnostics) {
        _ = specs.flow(ref, reportingTo: &d)
    }
}
