import FlowSpecLanguage
import FlowSpecRuntime

/// The requests a set of flows can send, by method and path pattern, for checking `expect.requests[]` at load time:
/// an expectation that no request can ever match passes `count: 0` whatever the backend does, so it is an error.
///
/// A request's path is matched as `HTTPRequest.isSent(to:)` matches at run time: the path as sent (the base URL's
/// path prefix, then the state's `path:`), or the path as the flow writes it. A `${…}` in either matches any text,
/// `/` included (a whole path may come from a variable); a base URL that starts with `${vars.…}` has a prefix not
/// known until run time, so only the end of an expected path is compared there.
struct SendablePaths {
    /// A piece of a path pattern: text as written, or a `${…}` hole.
    enum Piece: Equatable {
        case text(String)
        case hole
    }

    struct Request {
        var method: String
        /// The forms an expectation's `path` may take to select this request (as sent, and as written).
        var forms: [[Piece]]
        /// How it reads in a hint: `POST …/auth/v1/token`, `GET /api/users/${…}`.
        var shown: String
        /// The run variable the base URL starts with, when its prefix is unknown at check time.
        var unknownBase: String?
    }

    var requests: [Request] = []

    /// Every request state of `flows` (already the reachable ones: called flows and refresh flows included). With
    /// `vars` (a run's variables), a base URL made from them is rendered, so its prefix is known: what a run checks
    /// before it starts, where `check` could compare only the end of the path.
    init(_ flows: [Flow], vars: [String: JSONValue]? = nil) {
        for flow in flows {
            for state in flow.orderedStates {
                guard case .request(let r) = state.kind else { continue }
                if let url = r.url {
                    let path = Self.pathOfURL(Self.pieces(url))
                    requests.append(
                        Request(
                            method: r.method.uppercased(), forms: [path],
                            shown: "\(r.method.uppercased()) \(Self.show(path))"))
                } else if let template = r.path {
                    var path = Self.pieces(template)
                    if case .text(let t)? = path.first, !t.hasPrefix("/") { path[0] = .text("/" + t) }
                    if path.first == .hole { path.insert(.text("/"), at: 0) }
                    let base = flow.baseURL.map { Self.rendered($0, vars) ?? Self.pieces($0) }
                    let prefix = base.map { Self.pathOfURL($0, droppingTrailingSlash: true) } ?? []
                    let unknown =
                        base?.first == .hole
                        ? flow.baseURL.flatMap { base -> String? in
                            guard case .expr(let e)? = base.parts.first else { return nil }
                            return e.varsReads.first.map { "vars.\($0.0)" } ?? e.text
                        } : nil
                    let sent = Self.joined(prefix, path)
                    requests.append(
                        Request(
                            method: r.method.uppercased(), forms: prefix.isEmpty ? [path] : [sent, path],
                            shown: "\(r.method.uppercased()) \(Self.show(sent))", unknownBase: unknown))
                }
            }
        }
    }

    /// Whether some request can be selected by `method` (any when nil) and `path` (any when nil).
    func canMatch(method: String?, path: String?) -> Bool {
        requests.contains { request in
            (method == nil || request.method == method)
                && (path.map { p in request.forms.contains { Self.matches($0, p) } } ?? true)
        }
    }

    // MARK: - Patterns

    /// A base URL made only of text and run variables that `vars` gives, as one piece of text; nil otherwise.
    static func rendered(_ template: Template, _ vars: [String: JSONValue]?) -> [Piece]? {
        guard let vars,
            template.expressions.allSatisfy({ e in
                e.roots.allSatisfy { $0.0 == .vars } && e.varsReads.allSatisfy { vars[$0.0] != nil }
            })
        else {
            return nil
        }
        var env = Environment()
        env.vars = vars
        guard let text = try? Evaluator.render(template, env) else { return nil }
        return [.text(text)]
    }

    static func pieces(_ template: Template) -> [Piece] {
        var out: [Piece] = []
        for part in template.parts {
            switch part {
            case .text(let t):
                if case .text(let before)? = out.last {
                    out[out.count - 1] = .text(before + t)
                } else {
                    out.append(.text(t))
                }
            case .expr: if out.last != .hole { out.append(.hole) }
            }
        }
        return out
    }

    /// The path part of a URL pattern: after `scheme://authority`, up to a `?` or `#`. A URL that starts with a hole
    /// (`${vars.base_url}/token`) keeps it: it stands for whatever scheme, host and prefix the variable holds.
    static func pathOfURL(_ url: [Piece], droppingTrailingSlash: Bool = false) -> [Piece] {
        var out: [Piece] = []
        var inPath = false
        var seenScheme = false
        if url.first == .hole { inPath = true }
        outer: for piece in url {
            switch piece {
            case .hole:
                if inPath, out.last != .hole { out.append(.hole) }
            case .text(var text):
                if !inPath {
                    if !seenScheme, let scheme = text.range(of: "://") {
                        seenScheme = true; text = String(text[scheme.upperBound...])
                    }
                    guard seenScheme, let slash = text.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else {
                        continue
                    }
                    guard text[slash] == "/" else { break outer }
                    inPath = true
                    text = String(text[slash...])
                }
                if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) {
                    out.append(.text(String(text[..<end])))
                    break outer
                }
                out.append(.text(text))
            }
        }
        if droppingTrailingSlash, case .text(let t)? = out.last, t.hasSuffix("/") {
            out[out.count - 1] = .text(String(t.dropLast()))
            if case .text("")? = out.last { out.removeLast() }
        }
        if !droppingTrailingSlash, out.isEmpty { out = [.text("/")] }
        return out
    }

    static func joined(_ prefix: [Piece], _ path: [Piece]) -> [Piece] {
        guard case .text(let end)? = prefix.last, case .text(let start)? = path.first else { return prefix + path }
        return prefix.dropLast() + [.text(end + start)] + path.dropFirst()
    }

    static func show(_ pattern: [Piece]) -> String {
        pattern.enumerated().map { index, piece in
            switch piece {
            case .text(let t): t
            case .hole: index == 0 ? "…" : "${…}"
            }
        }.joined()
    }

    /// Wildcard matching, a hole standing for any text: linear in the text for each piece (greedy with backtracking
    /// to the last hole), so a long expected path cannot make loading slow.
    static func matches(_ pattern: [Piece], _ text: String) -> Bool {
        let text = Array(text.utf8)
        var i = 0
        var pieceIndex = 0
        // The last hole: which piece follows it, and where in the text its match may be extended from.
        var resume: (piece: Int, text: Int)?
        while true {
            if pieceIndex == pattern.count {
                if i == text.count { return true }
            } else {
                switch pattern[pieceIndex] {
                case .hole:
                    resume = (pieceIndex + 1, i)
                    pieceIndex += 1
                    continue
                case .text(let literal):
                    let bytes = Array(literal.utf8)
                    if i + bytes.count <= text.count, Array(text[i..<(i + bytes.count)]) == bytes {
                        i += bytes.count
                        pieceIndex += 1
                        continue
                    }
                }
            }
            // Mismatch: let the last hole take one more character, or fail when there is none.
            guard let r = resume, r.text < text.count else { return false }
            resume = (r.piece, r.text + 1)
            pieceIndex = r.piece
            i = r.text + 1
        }
    }

    /// What a hint lists: each distinct method and path the flows can send.
    var listing: String {
        var seen = Set<String>()
        let all = requests.map(\.shown).filter { seen.insert($0).inserted }
        return all.prefix(12).joined(separator: ", ") + (all.count > 12 ? ", …" : "")
    }
}

extension ScenarioDecoder {
    /// `expect.requests[]` entries that no request of `flowNames` (the flows they call and their sessions' refresh
    /// flows included) can ever match: an error at the entry, listing what the flows can send.
    static func checkRequestExpectations(
        _ expect: Expectation?, flows flowNames: [String], specs: SpecSet, vars: [String: JSONValue]? = nil,
        _ d: inout Diagnostics
    ) {
        guard let expect, !expect.requests.isEmpty, flowNames.allSatisfy({ specs.flows[$0] != nil }) else { return }
        let flows = specs.reachable(from: flowNames).flows
        // A flow with states that did not load already has its errors; what it could send is not known.
        guard !flows.contains(where: { !$0.brokenStates.isEmpty }) else { return }
        let paths = SendablePaths(flows, vars: vars)
        let names = flowNames.map { "`\($0)`" }.joined(separator: ", ")
        for check in expect.requests where check.method != nil || check.path != nil {
            guard !paths.canMatch(method: check.method, path: check.path) else { continue }
            let what = [check.method, check.path].compactMap { $0 }.joined(separator: " ")
            var hint =
                paths.requests.isEmpty
                ? "the flow\(flowNames.count == 1 ? "" : "s") send no request"
                : "the flow\(flowNames.count == 1 ? "" : "s") can send: \(paths.listing)"
            if check.path?.contains("?") == true { hint += "; a request is matched on its path without the query" }
            let unknown = Set(paths.requests.compactMap(\.unknownBase)).sorted()
            if !unknown.isEmpty {
                hint +=
                    "; the base URL comes from \(unknown.map { "`\($0)`" }.joined(separator: ", ")), unknown until the run, so only the end of the path was compared (… stands for it)"
            }
            hint +=
                "; `path` is the path as sent (what --verbose prints, the base URL's path included, no query) or as the flow writes it"
            d.error(
                check.location,
                "no request of \(names) can match `\(what)`: this expectation would \(check.count == 0 ? "pass whatever is sent" : "never be met")",
                hint: hint)
        }
    }
}

extension Scenario {
    /// Request expectations that no request can match once the run's variables say where the backend is: `check`
    /// compares only the end of a path whose base URL comes from a variable, so `{ path: /fx/refresh, count: 0 }`
    /// would pass against a backend under `/fs`. A live run checks again with the base URLs rendered, before it
    /// sends anything; each problem as `file:line:col: error: …`.
    func requestExpectationProblems(specs: SpecSet, vars: [String: JSONValue]) -> [String] {
        var d = Diagnostics()
        ScenarioDecoder.checkRequestExpectations(expect, flows: flowNames, specs: specs, vars: vars, &d)
        for step in steps {
            if case .run(let r) = step {
                ScenarioDecoder.checkRequestExpectations(r.expect, flows: [r.flow.name], specs: specs, vars: vars, &d)
            }
        }
        return d.sorted.filter { $0.severity == .error }.map(\.description)
    }
}
