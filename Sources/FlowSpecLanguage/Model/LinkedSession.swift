/// A session of the program with its refresh flow resolved: what a request through the session refreshes with,
/// found when the program was made, never by name during a run.
package struct LinkedSession: Sendable {
    package let definition: SessionDef
    /// The compiled refresh flow; nil when the session has none, or names a flow the program lacks (the check has
    /// reported it).
    package let refreshFlow: CompiledFlow?

    package init(_ definition: SessionDef, refreshFlow: CompiledFlow?) {
        self.definition = definition
        self.refreshFlow = refreshFlow
    }

    package var name: String { definition.name }
}
