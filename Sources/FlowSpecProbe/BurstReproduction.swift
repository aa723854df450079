import FlowSpecLanguage
import Foundation

/// The concurrent burst as a scenario of two steps: a flow logs in and keeps the fresh refresh token under
/// `probe_burst_token`; then `parallel:` copies of a second flow each send the refresh flow's request with that
/// kept token, which no copy overwrites — and `at_most: { accepted: 1 }` counts the copies the backend accepted.
/// Under a declared grace (GoTrue's), several may succeed if they answer the same new token: each accepted copy
/// outputs the token the refresh flow would store, and `same_outputs: [refresh_token]` compares them.
extension ReproductionWriter {
    static let keptKey = "probe_burst_token"
    static let keptOutput = "refresh_token"

    func burst(_ c: Context, stem: String, copies: Int, grace: Bool) -> Files? {
        guard let refresh = c.session.refresh?.flow.name, let request = refreshRequest(refresh, key: c.key) else {
            return nil
        }
        // The new token, as the refresh flow's own success transition reads it from the answer.
        // Written plain and in block style: quoted, `set:` would take it as text, not as an expression.
        let issued =
            request.issued.flatMap { YAMLWriter.canBePlain($0) ? "\n        set:\n          issued: \($0)" : nil } ?? ""
        guard !grace || !issued.isEmpty else { return nil }
        let burstName = "\(c.flowName)-burst"
        let keep =
            header(c) + """
                flow: \(c.flowName)
                title: \(title(c))
                namespace: \(c.namespace)
                start: log_in
                states:
                \(logIn(c, success: "keep"))  # The token every copy of \(burstName) sends; no copy writes it.
                  keep:
                    choice:
                      - else: true
                        store: { \(Self.keptKey): store.\(c.key) }
                        goto: ready
                  ready:
                    end: ready
                    success: true

                """
        let burst = """
            # One of the \(copies) concurrent refreshes of \(c.flowName)'s scenario: the refresh flow \(refresh)'s request, with the kept token.
            flow: \(burstName)
            title: \(Self.quoted("One concurrent refresh with the kept refresh token (\(c.declaration.session.name))"))
            namespace: \(c.namespace)
            \(request.defaults)start: send
            states:
              send:
            \(request.state)    on:
                  - when: status >= 200 && status < 300\(grace ? issued : "")
                    goto: accepted
                  - else: true
                    goto: refused
              accepted:
                end: accepted
                success: true\(grace ? "\n    outputs: { \(Self.keptOutput): issued }" : "")
              refused:
                end: refused
                success: true

            """
        let scenario = """
            # Written by `flowspec probe --reproduce`; see the flows probe/\(stem).yaml and probe/\(stem)-burst.yaml.
            scenario: \(Self.quoted("probe \(c.declaration.session.name) atomic_rotation: \(c.verdict.kind.title) holds (reproduces a BROKEN verdict)"))
            live: true
            tags: [probe, live]
            \(inputs(c.loginInputs))steps:
              - run: \(c.flowName)
                expect: { outcome: ready }
              - parallel: \(copies)
                run: \(burstName)
                expect:
                  \(grace ? "same_outputs: [\(Self.keptOutput)]" : "at_most: { accepted: 1 }")

            """
        return Files(stem: stem, flow: keep, scenario: scenario, moreFlows: ["\(stem)-burst": burst])
    }

    /// The refresh flow's first request that sends the refresh token, copied from its file with `store.KEY` read
    /// from the kept key instead, and the flow's defaults. Nil when it reads what a copy cannot have (the refresh
    /// flow's variables or inputs).
    func refreshRequest(_ name: String, key: String) -> (defaults: String, state: String, issued: String?)? {
        guard let flow = specs.flows[name],
            let stateName = flow.stateOrder.first(where: { name in
                guard case .request(let r)? = flow.states[name]?.kind else { return false }
                return Self.expressions(r).contains { $0.storeReads.contains { $0.0 == key } }
            }),
            case .request(let r)? = flow.states[stateName]?.kind,
            Self.expressions(r).allSatisfy({ $0.variableReads.isEmpty && $0.inputReads.isEmpty }),
            let source = readFile(flow.file), case .success(let root) = YAMLLoader.load(text: source, file: flow.file),
            let request = root["states"]?[stateName]?["request"]
        else { return nil }
        let pattern = try? NSRegularExpression(pattern: "\\bstore\\.\(NSRegularExpression.escapedPattern(for: key))\\b")
        func kept(_ node: YAMLNode) -> YAMLNode {
            switch node.content {
            case .scalar(let text, let quoted):
                let range = NSRange(text.startIndex..., in: text)
                let replaced =
                    pattern?.stringByReplacingMatches(in: text, range: range, withTemplate: "store.\(Self.keptKey)")
                    ?? text
                return YAMLNode(.scalar(replaced, quoted: quoted))
            case .mapping(let pairs): return YAMLNode(.mapping(pairs.map { ($0.key, kept($0.value)) }))
            case .sequence(let items): return YAMLNode(.sequence(items.map(kept)))
            }
        }
        let state = YAMLWriter.document(YAMLNode(.mapping([(Self.plain("request"), kept(request))])))
        let indented = state.split(separator: "\n").map { "    " + $0 + "\n" }.joined()
        let defaults =
            root["defaults"].map {
                "defaults:\n" + YAMLWriter.document($0).split(separator: "\n").map { "  " + $0 + "\n" }.joined()
            } ?? ""
        let issued = r.transitions.lazy.compactMap { $0.store.first { $0.0 == key }?.1.text }.first
        return (defaults, indented, issued)
    }

    /// Every expression a request state sends.
    static func expressions(_ r: RequestState) -> [Expr] {
        var out = (r.headers.map(\.1) + r.query.map(\.1) + [r.path, r.url].compactMap { $0 }).flatMap(\.expressions)
        switch r.body {
        case .none: break
        case .json(let value): out += value.expressions
        case .form(let fields): out += fields.flatMap(\.1.expressions)
        }
        return out
    }
}
