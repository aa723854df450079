/// The staff endpoints the Repair Minder API's quarantine rules name (docs/systems/repairminder.md, Quarantine Mode), with small plausible bodies: the allow-listed ones
/// and `GET /api/orders`, the guarded endpoint the orders flow reads (`{"orders": [...]}`).
struct StaffResourceRoutes: Sendable {
    let world: World
    var sessions: StaffSessions { StaffSessions(world: world) }

    var routes: [Route] {
        [
            Route("GET", "/api/companies/:id") { request, parameters in
                try authenticated(request) { session, _ in
                    guard parameters["id"] == session.company.id else {
                        return .error(403, RepairMinderMessages.accessDenied)
                    }
                    return .ok(["company": RepairMinderJSON.company(session.company)])
                }
            },
            Route("GET", "/api/company-locations") { request, _ in
                try authenticated(request) { session, _ in
                    .ok(["locations": [location(of: session.company)]])
                }
            },
            Route("GET", "/api/company-locations/:id") { request, parameters in
                try authenticated(request) { session, _ in
                    let only = location(of: session.company)
                    guard parameters["id"] == only["id"]?.stringValue else { return .error(404, "Location not found") }
                    return .ok(["location": only])
                }
            },
            Route("GET", "/api/users/me") { request, _ in
                try authenticated(request) { session, state in
                    .ok(["user": sessions.userJSON(session.user, state: state)])
                }
            },
            Route("GET", "/api/users/me/avatar") { request, _ in
                try authenticated(request) { _, _ in .ok(["avatar_url": nil]) }
            },
            Route("GET", "/api/subscription/features") { request, _ in
                try authenticated(request) { session, _ in
                    .ok([
                        "plan": "standard", "status": .string(session.company.status.rawValue),
                        "features": ["orders", "invoices", "customer_portal"],
                    ])
                }
            },
            Route("GET", "/api/orders") { request, _ in
                try authenticated(request) { session, _ in .ok(["orders": .array(orders(of: session.company))]) }
            },
        ]
    }

    private func authenticated(
        _ request: SandboxRequest,
        _ body: (StaffSessions.Authenticated, StaffState) -> Reply
    ) throws -> Reply {
        try world.withState { state throws(Rejection) in
            let session = try sessions.authenticate(request, state: state.staff)
            return body(session, state.staff)
        }
    }

    private func location(of company: SandboxAccounts.Company) -> JSON {
        [
            "id": .string(Secrets.stableID("location:" + company.id)), "company_id": .string(company.id),
            "name": "Main workshop", "is_primary": 1,
        ]
    }

    private func orders(of company: SandboxAccounts.Company) -> [JSON] {
        (1...2).map { number in
            [
                "id": .string(Secrets.stableID("order:\(company.id):\(number)")), "company_id": .string(company.id),
                "order_number": .int(1000 + number), "status": number == 1 ? "in_progress" : "awaiting_collection",
                "created_at": .string(RepairMinderJSON.createdAt),
            ]
        }
    }
}
