import Foundation

/// Test-only endpoints under `/__sandbox`: the outbox (codes "sent" by email and SMS) and switches a live
/// suite needs to reach states it cannot reach through the package API (a staff account deactivated mid-session).
/// No apikey or token: this is a test backend, and codes reaching the test through here is the point.
struct ControlRoutes: Sendable {
    let world: World

    var table: RouteTable {
        RouteTable(routes: [
            Route("GET", "/__sandbox/outbox") { request, _ in
                let messages = world.withState { $0.outbox.messages(to: request.query["to"]) }
                return .ok(.array(messages.map(\.json)))
            },
            Route("DELETE", "/__sandbox/outbox") { _, _ in
                world.withState { $0.outbox.clear() }
                return .noContent()
            },
            Route("GET", "/__sandbox/outbox/latest") { request, _ in
                guard let to = request.query["to"], !to.trimmingCharacters(in: .whitespaces).isEmpty else {
                    return .text(400, "Missing ?to=ADDRESS")
                }
                guard let latest = world.withState({ $0.outbox.messages(to: to).last }) else {
                    return .text(404, "No message sent to \(to)")
                }
                return .text(200, latest.code)
            },
            Route("POST", "/__sandbox/staff/deactivate") { request, _ in try setActive(false, request) },
            Route("POST", "/__sandbox/staff/activate") { request, _ in try setActive(true, request) },
        ])
    }

    func respond(to request: SandboxRequest) async -> Reply? {
        guard request.path.hasPrefix("/__sandbox") else { return nil }
        switch await table.dispatch(request) {
        case .handled(let reply): return reply
        case .wrongMethod(let allowed):
            var reply = Reply.error(405, "Method not allowed")
            reply.headers["Allow"] = allowed.joined(separator: ", ")
            return reply
        case .noRoute: return .error(404, RepairMinderMessages.notFound)
        }
    }

    private func setActive(_ active: Bool, _ request: SandboxRequest) throws -> Reply {
        let body = try request.repairMinderBody()
        guard let email = body.text("email") else { return .error(400, "Email is required") }
        guard let user = StaffSessions(world: world).user(email: email) else {
            return .error(404, "No staff account \(email)")
        }
        world.withState { $0.staff.activeOverride[user.id] = active }
        return .ok(["email": .string(user.email), "active": .bool(active)])
    }
}
