import Synchronization

/// The encoded forms and search automatons of secret sets already seen, shared by the redactors of one suite.
/// Every run of a scenario starts from the same secrets (its file's, the credential run variables), and working
/// out their forms and automaton again for each run cost more than masking itself.
package final class PreparedSecrets: Sendable {
    struct Entry: Sendable {
        var encoded: Set<String>
        var inText: SecretSearch
        var bulkBytes: Int
    }
    /// Enough for every scenario of a large suite; past it the cache starts over rather than grow without bound.
    static let capacity = 4_096
    private let entries = Mutex<[Set<String>: Entry]>([:])

    package init() {}

    func entry(for secrets: Set<String>) -> Entry? { entries.withLock { $0[secrets] } }

    func store(_ entry: Entry, for secrets: Set<String>) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[secrets] = entry
        }
    }
}
