/// A session of the program with its refresh flow resolved: what a request through the session refreshes with,
/// found when the program was made, never by name during a run.
public struct LinkedSession: Sendable {
    public let definition: SessionDef
    /// The compiled refresh flow; nil when the session has none, or names a flow the program lacks (the check has
    /// reported it).
    public let refreshFlow: CompiledFlow?

    public init(_ definition: SessionDef, refreshFlow: CompiledFlow?) {
        self.definition = definition
        self.refreshFlow = refreshFlow
    }

    public var name: String { definition.name }
}
