import FlowSpecLanguage

/// When a live run gets the embedded sandbox: only when the run names no backend of its own. A run that gives any
/// variable its flows' base URLs read (its own `api_url`, or a shipped URL pointed at staging) never gets a sandbox
/// it did not ask for, and never has some scenarios answered by staging and others by the sandbox in one report.
package struct EmbeddedSandboxRule: Sendable {
    /// The URL variables the embedded sandbox answers for (the shipped flows' base URLs read them).
    package static let sandboxURLVariables: Set<String> = [
        "repairminder_url", "supabase_url", "traveling_url", "legacy_url",
    ]

    /// Whether anything live runs at all.
    package var needed: Bool
    /// The variables the base URLs of the flows this run may execute read.
    package var backendVariables: Set<String>
    /// False with `--no-sandbox`.
    package var embedded: Bool
    /// What the user called the live part of the run in messages (`live scenarios`, `probe`).
    package var purpose: String

    package init(needed: Bool, backendVariables: Set<String>, embedded: Bool, purpose: String = "live scenarios") {
        self.needed = needed
        self.backendVariables = backendVariables
        self.embedded = embedded
        self.purpose = purpose
    }

    /// The sandbox's variables the run's flows read, when the sandbox should start for a run given `vars`; nil when
    /// it must not.
    package func sandboxVariables(given vars: [String: JSONValue]) -> [String]? {
        guard needed, embedded, !backendVariables.contains(where: { vars[$0] != nil }) else { return nil }
        let forTheSandbox = backendVariables.intersection(Self.sandboxURLVariables).sorted()
        return forTheSandbox.isEmpty ? nil : forTheSandbox
    }

    /// Said when the sandbox started, so a run against it is never mistaken for one against a real backend.
    package func started(baseURL: String, legacyURL: String, answering names: [String]) -> String {
        "\(purpose): started the embedded sandbox at \(baseURL) (legacy API at \(legacyURL)) because no backend was given for "
            + "\(names.joined(separator: ", ")), which the flows' base URLs read"
            + "; give \(names.count == 1 ? "it" : "them") with --vars-file or --var to test another backend, or --no-sandbox"
    }

    /// Said when the sandbox should have started and could not.
    package func notStarted(because error: any Error, answering names: [String]) -> String {
        "warning: could not start the embedded sandbox (\(error)); \(purpose) that need \(names.joined(separator: ", ")) have no backend"
    }
}
