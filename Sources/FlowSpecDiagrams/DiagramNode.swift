import FlowSpecLanguage

/// What a diagram shows for one state, whatever the output format: its name, its kind and one line of
/// detail (`POST /api/auth/login`, `input code`, `call repairminder.refresh`, `wait 16m`, the outcome).
/// Both renderers read this so Mermaid and DOT always say the same thing about a state.
package struct DiagramNode: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        case request, input, choice, call, wait, end
    }

    package var name: String
    package var kind: Kind
    /// The second line of the label, if the kind has one worth showing.
    package var detail: String?
    /// End states only: whether the outcome counts as success.
    package var success: Bool?

    package init(_ state: State) {
        name = state.name
        let summary = state.summary
        switch state.kind {
        case .request: kind = .request
        case .input: kind = .input
        case .choice: kind = .choice
        case .call: kind = .call
        case .wait: kind = .wait
        case .end: kind = .end
        }
        detail = summary.detail
        success = summary.success
    }

    /// The label's lines: the state name, then the detail.
    package var lines: [String] { [name] + (detail.map { [$0] } ?? []) }
}

extension CompiledFlow {
    /// The diagram node of every state, in file order.
    package var diagramNodes: [DiagramNode] { states.map(DiagramNode.init) }
}

/// Guard text as a diagram writes it: on one line, runs of whitespace collapsed (a YAML block scalar guard
/// spans lines, and a line break would end a Mermaid statement).
enum DiagramText {
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }

    /// An edge's label with how often the trace took it: `status == 200 ×3`.
    static func edgeLabel(_ edge: Edge, taken: Int) -> String {
        let label = oneLine(edge.label)
        guard taken > 0 else { return label }
        return label.isEmpty ? "×\(taken)" : "\(label) ×\(taken)"
    }
}
