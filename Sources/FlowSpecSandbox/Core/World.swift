import Synchronization

/// One sandbox's configuration and mutable state. The state lives behind one `Mutex`, and every request
/// runs its whole read-check-write inside one `withLock`, so concurrent requests (parallel logins, a refresh
/// racing a reuse) see a consistent world and a refresh token can never be rotated twice.
final class World: Sendable {
    let accounts: SandboxAccounts
    let breaks: Set<SandboxBreak>
    let state: Mutex<WorldState>
    let signers: Signers

    init(accounts: SandboxAccounts, breaks: Set<SandboxBreak>) {
        self.accounts = accounts
        self.breaks = breaks
        self.state = Mutex(WorldState())
        // Only a sandbox with `accepts-altered-claims` needs to remember the signatures it issued.
        self.signers = Signers(remembersIssued: breaks.contains(.acceptsAlteredClaims))
    }

    func has(_ brokenPromise: SandboxBreak) -> Bool {
        breaks.contains(brokenPromise)
    }

    /// Runs `body` with exclusive access to the state.
    func withState<Result: Sendable, Failure: Error>(
        _ body: (inout WorldState) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { (value: inout WorldState) throws(Failure) -> Result in try body(&value) }
    }
}

/// A separate random key per backend: a Repair Minder staff token must not open Traveling or Supabase endpoints.
struct Signers: Sendable {
    let staff: HS256Signer
    let customer: HS256Signer
    let supabase = HS256Signer()
    let traveling = HS256Signer()
    let legacy = HS256Signer()

    init(remembersIssued: Bool = false) {
        staff = HS256Signer(remembersIssued: remembersIssued)
        customer = HS256Signer(remembersIssued: remembersIssued)
    }
}

struct WorldState: Sendable {
    var outbox = Outbox()
    var staff = StaffState()
    var customers = CustomerState()
    var supabase = SupabaseState()
    var traveling = TravelingState()
    var legacy = LegacyState()
}
