/// What a state does, in a few words: the one description of a state every output uses. `detail` is the line a
/// diagram writes under the state's name, where the node's shape already shows the kind (`POST /api/auth/login`,
/// `input code`, `call repairminder.refresh`, `wait 16m`, `authenticated (success)`; none for a choice); `line` is
/// the same on its own, where nothing else shows the kind (`choice`, `end authenticated (success)`), as the HTML
/// report's steps and the SVG diagram's boxes write it.
package struct StateSummary: Sendable, Equatable {
    /// `request`, `input`, `choice`, `call`, `wait` or `end`.
    package var kind: String
    package var detail: String?
    /// End states only: whether the outcome counts as success.
    package var success: Bool?

    package init(_ state: State) {
        kind = state.kindName
        switch state.kind {
        case .request(let r):
            // `url:` is an absolute template; show whichever the state writes.
            let target = r.path?.source ?? r.url?.source ?? ""
            detail = target.isEmpty ? r.method : "\(r.method) \(target)"
        case .input(let i): detail = "input \(i.input.name)"
        case .choice: detail = nil
        case .call(let c): detail = "call \(c.flow.name)"
        case .wait(let w): detail = "wait \(w.duration.text)"
        case .end(let e):
            detail = "\(e.outcome) (\(e.success ? "success" : "failure"))"
            success = e.success
        }
    }

    /// One line that stands alone.
    package var line: String {
        guard let detail else { return kind }
        return success == nil ? detail : "end \(detail)"
    }
}

extension State {
    package var summary: StateSummary { StateSummary(self) }
}
