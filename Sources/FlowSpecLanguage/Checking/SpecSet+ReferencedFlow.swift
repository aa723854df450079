extension SpecSet {
    /// The loaded flow a reference names, or nil once `unknown flow` is reported at the reference: flows, sessions,
    /// scenarios and probe files all name flows, and a misspelt name is told the same way wherever it stands.
    /// - Parameter otherwise: the hint when no loaded flow's name is close, in the referring file's terms (where
    ///   such flows come from); nil for none.
    package func flow(_ ref: NameRef, otherwise: String? = nil, reportingTo d: inout Diagnostics) -> Flow? {
        if let flow = flows[ref.name] { return flow }
        // Sorted, so a name as close to two flows gets the same suggestion on every run.
        d.error(
            ref.location, "unknown flow `\(ref.name)`",
            hint: Suggestion.didYouMean(ref.name, in: flows.keys.sorted()) ?? otherwise)
        return nil
    }
}
