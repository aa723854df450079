/// Customer portal sign-in (Repair Minder API, docs/systems/repairminder.md): magic-link codes only, company selection for customers of several
/// companies, a customer JWT without refresh token; plus logout (path from the scenarios) and /me (sandbox extra).
struct CustomerRoutes: Sendable {
    let world: World

    var routes: [Route] {
        [
            Route("POST", "/api/customer/auth/request-magic-link") { request, _ in try requestCode(request) },
            Route("POST", "/api/customer/auth/verify-code") { request, _ in try verifyCode(request) },
            Route("POST", "/api/customer/auth/logout") { request, _ in try logout(request) },
            Route("GET", "/api/customer/auth/me") { request, _ in try me(request) },
        ]
    }

    private func customer(email: String) -> SandboxAccounts.Customer? {
        let wanted = email.lowercased()
        return world.accounts.customers.first { $0.email.lowercased() == wanted }
    }

    func requestCode(_ request: SandboxRequest) throws -> Reply {
        let body = try request.repairMinderBody()
        guard let email = body.text("email") else { return .error(400, "Email is required") }
        guard let customer = customer(email: email) else {
            if world.has(.customerEnumeration) { return .error(404, RepairMinderMessages.brokenNoCustomer) }
            return sent
        }
        // A companyId (custom domains) that the customer does not belong to sends nothing, with the same answer.
        if let companyID = body.text("companyId"), !customer.companyIDs.contains(companyID) { return sent }
        world.withState { state in
            let code = state.customers.codes.issue(
                for: customer.email.lowercased(), lifetime: world.accounts.lifetimes.code,
                now: request.now)
            state.outbox.send(
                to: customer.email, channel: .email, code: code, subject: "Your login code", now: request.now)
        }
        return sent
    }

    private var sent: Reply { .ok(["message": .string(RepairMinderMessages.customerLinkSent)]) }

    func verifyCode(_ request: SandboxRequest) throws -> Reply {
        let body = try request.repairMinderBody()
        guard let email = body.text("email"), let code = body.text("code") else {
            return .error(400, "Email and code are required")
        }
        let invalid = Reply.error(400, RepairMinderMessages.invalidOrExpiredCode)
        guard let customer = customer(email: email) else { return invalid }
        let key = customer.email.lowercased()
        return world.withState { state in
            // Checked without consuming first: the selection answer must leave the code valid for the follow-up.
            guard state.customers.codes.redeem(code, for: key, now: request.now, consume: false) else { return invalid }
            let companyID: String
            if let chosen = body.text("companyId") {
                guard customer.companyIDs.contains(chosen) else {
                    return .error(400, RepairMinderMessages.invalidCompany)
                }
                companyID = world.has(.ignoresCompanyID) ? customer.companyIDs[0] : chosen
            } else if customer.companyIDs.count == 1 {
                companyID = customer.companyIDs[0]
            } else {
                return .ok([
                    "requiresCompanySelection": true,
                    "companies": .array(
                        customer.companyIDs.compactMap(world.accounts.company(id:))
                            .map(RepairMinderJSON.customerCompany)),
                    "email": .string(customer.email),
                    "code": .string(code),
                ])
            }
            if !world.has(.codesReusable) {
                state.customers.codes.discard(for: key)
            }
            guard let company = world.accounts.company(id: companyID) else { return invalid }
            return .ok(signIn(customer, company: company, now: request.now, state: &state.customers))
        }
    }

    private func signIn(
        _ customer: SandboxAccounts.Customer, company: SandboxAccounts.Company, now: Double,
        state: inout CustomerState
    ) -> JSON {
        let sessionID = Secrets.uuid()
        state.sessions[sessionID] = false
        let token = world.signers.customer.sign([
            "type": "customer", "clientId": .string(customer.clientID(in: company.id)),
            "companyId": .string(company.id),
            "email": .string(customer.email), "scope": "customer_portal", "issuedAt": .int(Int(now)),
            "sessionId": .string(sessionID),
            "iat": .int(Int(now)),
            "exp": .int(WallClock.expiry(now: now, lifetime: world.accounts.lifetimes.customerToken)),
        ])
        return [
            "token": .string(token),
            "client": RepairMinderJSON.client(customer, companyID: company.id),
            "company": RepairMinderJSON.customerCompany(company),
        ]
    }

    func logout(_ request: SandboxRequest) throws -> Reply {
        try world.withState { state throws(Rejection) in
            let session = try authenticate(request, state: state.customers)
            if !world.has(.customerLogoutKeepsSession) {
                state.customers.sessions[session.sessionID] = true
            }
            return .ok(["success": true])
        }
    }

    func me(_ request: SandboxRequest) throws -> Reply {
        try world.withState { state throws(Rejection) in
            let session = try authenticate(request, state: state.customers)
            return .ok([
                "client": RepairMinderJSON.client(session.customer, companyID: session.company.id),
                "company": RepairMinderJSON.customerCompany(session.company),
            ])
        }
    }

    struct Authenticated {
        let customer: SandboxAccounts.Customer
        let company: SandboxAccounts.Company
        let sessionID: String
    }

    private func authenticate(_ request: SandboxRequest, state: CustomerState) throws(Rejection) -> Authenticated {
        guard let token = request.bearerToken else {
            throw Rejection(.error(401, RepairMinderMessages.authenticationRequired))
        }
        let claims: JSON
        let verified = world.verifyRepairMinderToken(token, with: world.signers.customer, now: request.now)
        if world.has(.customerRoleConfusion), case .failure(let failure) = verified, failure != .expired,
            let confused = confusedStaff(token, now: request.now)
        {
            return confused
        }
        switch verified {
        case .success(let value): claims = value
        case .failure(.expired): throw Rejection(.error(401, RepairMinderMessages.tokenExpired))
        case .failure: throw Rejection(.error(401, RepairMinderMessages.invalidToken))
        }
        guard claims.text("type") == "customer", let email = claims.text("email"),
            let customer = customer(email: email),
            let companyID = claims.text("companyId"), let company = world.accounts.company(id: companyID),
            let sessionID = claims.text("sessionId")
        else { throw Rejection(.error(401, RepairMinderMessages.invalidToken)) }
        guard state.sessions[sessionID] == false else {
            throw Rejection(.error(401, RepairMinderMessages.sessionRevoked))
        }
        return Authenticated(customer: customer, company: company, sessionID: sessionID)
    }
}
