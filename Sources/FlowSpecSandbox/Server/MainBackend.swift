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

    func respond(to request: SandboxRequest) -> Reply {
        control.respond(to: request)
            ?? supabase.respond(to: request)
            ?? traveling.respond(to: request)
            ?? repairMinder.respond(to: request)
            ?? .error(404, RepairMinderMessages.notFound)
    }
}
