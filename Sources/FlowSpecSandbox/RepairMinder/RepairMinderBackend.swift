/// The Repair Minder API (docs/systems/repairminder.md) under `/api`: staff and customer auth, sessions, quarantine;
/// plus the sandbox-only staff notes under `/api/sandbox/notes`.
struct RepairMinderBackend: Sendable {
    let world: World
    private let table: RouteTable
    private let quarantine: QuarantineGuard

    init(world: World) {
        self.world = world
        self.quarantine = QuarantineGuard(world: world)
        self.table = RouteTable(
            routes: StaffLoginRoutes(world: world).routes + StaffSessionRoutes(world: world).routes
                + CustomerRoutes(world: world).routes + StaffResourceRoutes(world: world).routes
                + SandboxNoteRoutes(world: world).routes)
    }

    func respond(to request: SandboxRequest) async -> Reply? {
        guard request.path == "/api" || request.path.hasPrefix("/api/") else { return nil }
        if let refusal = quarantine.refusal(for: request) { return refusal }
        switch await table.dispatch(request) {
        case .handled(let reply):
            return reply
        case .wrongMethod(let allowed):
            var reply = Reply.error(405, "Method not allowed")
            reply.headers["Allow"] = allowed.joined(separator: ", ")
            return reply
        case .noRoute:
            return .error(404, RepairMinderMessages.notFound)
        }
    }
}
