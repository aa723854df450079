/// The colours of the state kinds, for every diagram format: Mermaid's `classDef`s, DOT's node attributes and the
/// SVG stylesheet's kind rules are all written from here, so a kind is recoloured in one place.
///
/// A case is a node's colour class: its kind, except end states, which are coloured by success. The raw value is
/// the Mermaid class name: `call` would be read as Mermaid's `call` keyword (click callbacks).
///
/// One set of hues for all three. The one difference is on purpose: Mermaid and DOT draw the plain flow, so an end
/// state is filled by its outcome; the SVG is drawn under runs (blue rings, green or red on the end a run reached),
/// so its end states keep the neutral `wait` fill (`fillUnderRuns`): an unreached end filled green would read as
/// the run's result.
enum StatePalette: String, CaseIterable {
    case request, input, choice, call = "subflow", wait, success, failure

    init(_ node: DiagramNode) {
        switch node.kind {
        case .request: self = .request
        case .input: self = .input
        case .choice: self = .choice
        case .call: self = .call
        case .wait: self = .wait
        case .end: self = node.success == true ? .success : .failure
        }
    }

    var fill: String {
        switch self {
        case .request: "#ddf4ff"
        case .input: "#fff8c5"
        case .choice: "#fbefff"
        case .call: "#e0f7f5"
        case .wait: "#f6f8fa"
        case .success: "#2da44e"
        case .failure: "#cf222e"
        }
    }

    var stroke: String {
        switch self {
        case .request: "#0969da"
        case .input: "#9a6700"
        case .choice: "#8250df"
        case .call: "#0f766e"
        case .wait: "#57606a"
        case .success: "#116329"
        case .failure: "#82071e"
        }
    }

    /// Text colour: white on the strong success/failure fills.
    var text: String {
        switch self {
        case .success, .failure: "#ffffff"
        default: "#24292f"
        }
    }

    /// The SVG box fill of a kind: its own fill, but the neutral one for every end state (see above).
    static func fillUnderRuns(_ kind: DiagramNode.Kind) -> String {
        switch kind {
        case .request: request.fill
        case .input: input.fill
        case .choice: choice.fill
        case .call: call.fill
        case .wait, .end: wait.fill
        }
    }

    /// The start marker, in Mermaid and DOT.
    static let start = "#24292f"
    /// What a trace took, in Mermaid and DOT: the states it visited and the edges it followed.
    static let traced = "#1f6feb"
}
