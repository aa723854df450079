/// Issuing and checking Repair Minder staff sessions: an HS256 access JWT with the Repair Minder API's claims (docs/systems/repairminder.md, Staff JWT) plus
/// `sessionId` (the refresh family), and an opaque rotating refresh token.
struct StaffSessions: Sendable {
    let world: World

    private var accounts: SandboxAccounts { world.accounts }

    // MARK: Accounts

    func user(email: String) -> SandboxAccounts.StaffUser? {
        let wanted = email.lowercased()
        return accounts.staff.first { $0.email.lowercased() == wanted }
    }

    func user(id: String) -> SandboxAccounts.StaffUser? {
        accounts.staff.first { $0.id == id }
    }

    func company(of user: SandboxAccounts.StaffUser) -> SandboxAccounts.Company {
        // The accounts loader guarantees the company exists; the fallback keeps a hand-built account usable.
        accounts.company(id: user.companyID) ?? SandboxAccounts.Company(id: user.companyID, name: "Unknown company")
    }

    func isActive(_ user: SandboxAccounts.StaffUser, in state: StaffState) -> Bool {
        state.activeOverride[user.id] ?? user.isActive
    }

    /// Active and not archived: what refresh and authenticated endpoints require.
    func canUseSession(_ user: SandboxAccounts.StaffUser, in state: StaffState) -> Bool {
        isActive(user, in: state) && !user.isArchived
    }

    // MARK: Issuing

    /// Starts a refresh family and answers the Repair Minder API's verify shape (docs/systems/repairminder.md, Step 3: Verify 2FA Code): token, refreshToken, expiresIn, user, company.
    func signIn(_ user: SandboxAccounts.StaffUser, request: SandboxRequest, state: inout StaffState) -> JSON {
        let isMobile = isMobile(request)
        let family = state.families.start(
            subject: user.id, lifetime: refreshLifetime(isMobile: isMobile),
            isMobile: isMobile, now: request.now)
        state.lastLogin[user.id] = request.now
        return [
            "token": .string(accessToken(for: user, sessionID: family.id, isMobile: isMobile, now: request.now)),
            "refreshToken": .string(family.current),
            "expiresIn": .int(WallClock.seconds(accessLifetime)),
            "user": userJSON(user, state: state),
            "company": RepairMinderJSON.company(company(of: user)),
        ]
    }

    func accessToken(for user: SandboxAccounts.StaffUser, sessionID: String, isMobile: Bool, now: Double) -> String {
        let company = company(of: user)
        return world.signers.staff.sign([
            "userId": .string(user.id), "companyId": .string(company.id), "role": .string(user.role),
            "phiAccessLevel": .string(user.phiAccessLevel), "isMobile": .bool(isMobile),
            "dataClassification": .string(user.dataClassification),
            "permissions": .array(user.permissions.map(JSON.string)),
            "sessionId": .string(sessionID),
            "iat": .int(Int(now)), "exp": .int(WallClock.expiry(now: now, lifetime: accessLifetime)),
        ])
    }

    /// The staff access token's lifetime: the configured one (15 minutes by default, as documented), or 30 days under
    /// the `long-access-lifetime` break — a server configured that way, which says so in `expiresIn` as well.
    var accessLifetime: Double {
        world.has(.longAccessLifetime) ? Self.brokenAccessLifetime : accounts.lifetimes.accessToken
    }

    static let brokenAccessLifetime: Double = 30 * 24 * 3600

    func userJSON(_ user: SandboxAccounts.StaffUser, state: StaffState) -> JSON {
        RepairMinderJSON.user(
            user, company: company(of: user), isActive: isActive(user, in: state),
            lastLogin: state.lastLogin[user.id])
    }

    func isMobile(_ request: SandboxRequest) -> Bool {
        MobileUserAgent.matches(request.userAgent) && !world.has(.mobileGetsWebLifetime)
    }

    func refreshLifetime(isMobile: Bool) -> Double {
        isMobile ? accounts.lifetimes.refreshTokenMobile : accounts.lifetimes.refreshTokenWeb
    }

    // MARK: Checking

    struct Authenticated: Sendable {
        let user: SandboxAccounts.StaffUser
        let company: SandboxAccounts.Company
        let sessionID: String
    }

    /// The staff member behind the request's bearer token, or a 401 `{"error": …}`.
    func authenticate(_ request: SandboxRequest, state: StaffState) throws(Rejection) -> Authenticated {
        switch check(request, state: state) {
        case .success(let authenticated): return authenticated
        case .failure(let rejection): throw rejection
        }
    }

    func check(_ request: SandboxRequest, state: StaffState) -> Result<Authenticated, Rejection> {
        guard let token = request.bearerToken else {
            return .failure(Rejection(.error(401, RepairMinderMessages.authenticationRequired)))
        }
        let verified = world.verifyRepairMinderToken(token, with: world.signers.staff, now: request.now)
        if world.has(.roleConfusion), case .failure(let failure) = verified, failure != .expired,
            let confused = confusedCustomer(token, now: request.now)
        {
            return .success(confused)
        }
        let claims: JSON
        switch verified {
        case .success(let value): claims = value
        case .failure(.expired): return .failure(Rejection(.error(401, RepairMinderMessages.tokenExpired)))
        case .failure: return .failure(Rejection(.error(401, RepairMinderMessages.invalidToken)))
        }
        guard let userID = claims.text("userId"), let user = user(id: userID), let sessionID = claims.text("sessionId")
        else {
            return .failure(Rejection(.error(401, RepairMinderMessages.invalidToken)))
        }
        guard state.families.isLive(sessionID) else {
            return .failure(Rejection(.error(401, RepairMinderMessages.sessionRevoked)))
        }
        guard canUseSession(user, in: state) else {
            return .failure(Rejection(.error(401, RepairMinderMessages.noLongerActive)))
        }
        return .success(Authenticated(user: user, company: company(of: user), sessionID: sessionID))
    }
}
