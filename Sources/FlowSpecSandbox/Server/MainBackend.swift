/// Everything on the main port: the outbox and controls, Supabase under /auth/v1, Traveling under /v1,
/// Repair Minder under /api. Prefixes do not overlap, so the order only decides who answers unknown paths.
struct MainBackend: Sendable {
    let control: ControlRoutes
    let supabase: SupabaseBackend
    let traveling: TravelingBackend
    let repairMinder: RepairMinderBackend

    init(world: World) {
        control = ControlRoutes(world: world)
        supabase = SupabaseBackend(world: world)
        traveling = TravelingBackend(world: world)
        repairMinder = RepairMinderBackend(world: world)
    }

    func respond(to request: SandboxRequest) async -> Reply {
        // `??` takes no `await` on its right, hence the ladder.
        if let reply = await control.respond(to: request) { return reply }
        if let reply = await supabase.respond(to: request) { return reply }
        if let reply = await traveling.respond(to: request) { return reply }
        if let reply = await repairMinder.respond(to: request) { return reply }
        return .error(404, RepairMinderMessages.notFound)
    }
}
