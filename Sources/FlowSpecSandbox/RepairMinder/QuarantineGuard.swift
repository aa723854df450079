/// The Repair Minder API's quarantine mode (docs/systems/repairminder.md, Quarantine Mode): staff of a `pending_approval` or `suspended` company may only reach the
/// allow-listed endpoints; everything else under /api answers 403 ACCOUNT_PENDING_APPROVAL. It runs
/// before routing, like a middleware, so unknown paths are refused too rather than revealed as 404s.
struct QuarantineGuard: Sendable {
    let world: World

    static let refusal = Reply.json(
        403,
        [
            "error": .string(RepairMinderMessages.pendingApproval),
            "code": .string(RepairMinderMessages.pendingApprovalCode),
        ])

    /// The 403 for a quarantined staff member outside the allow-list, else nil (the request goes on to routing).
    func refusal(for request: SandboxRequest) -> Reply? {
        guard !world.has(.quarantineOpen), request.path.hasPrefix("/api/"), !Self.isAllowed(request.path) else {
            return nil
        }
        let sessions = StaffSessions(world: world)
        let session = world.withState { state in sessions.check(request, state: state.staff) }
        guard case .success(let authenticated) = session, authenticated.company.status.isQuarantined else { return nil }
        return Self.refusal
    }

    /// The documented allow-list, plus the sign-in endpoints (they take no staff token at all).
    static func isAllowed(_ path: String) -> Bool {
        let segments = Route.split(path).map(String.init)
        func exactly(_ expected: String...) -> Bool { segments == expected }
        func under(_ prefix: String...) -> Bool { segments.starts(with: prefix) }
        return exactly("api", "auth", "me") || exactly("api", "auth", "logout") || exactly("api", "auth", "refresh")
            || exactly("api", "auth", "login") || under("api", "auth", "2fa") || under("api", "auth", "magic-link")
            || under("api", "customer")
            // /api/companies/{id}: the handler allows only the caller's own company.
            || (segments.count == 3 && under("api", "companies"))
            || under("api", "company-locations")
            || exactly("api", "users", "me") || exactly("api", "users", "me", "avatar")
            || exactly("api", "subscription", "features")
    }
}
