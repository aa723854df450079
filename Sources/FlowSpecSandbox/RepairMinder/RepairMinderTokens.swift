/// How the Repair Minder API checks its access tokens, staff and customer alike: the promises (docs/systems/repairminder.md,
/// JWT Claims; RFC 8725), minus the JWT breaks the sandbox was started with. One place, so the two kinds of token
/// cannot drift apart in what a break lets through.
extension World {
    func verifyRepairMinderToken(_ token: String, with signer: HS256Signer, now: Double) -> Result<JSON, JWTFailure> {
        signer.verify(
            token, now: now, checkSignature: !has(.acceptsTamperedToken), checkExpiry: !has(.acceptsExpiredToken),
            acceptsUnsigned: has(.acceptsUnsignedToken), trustsIssuedSignatures: has(.acceptsAlteredClaims))
    }
}

extension StaffSessions {
    /// Break `role-confusion`: the staff middleware accepts a token the customer key verifies (as if both kinds shared
    /// one secret) and never looks at `type: customer`; it takes the caller from the claims (`req.user = claims`) with
    /// no account or session lookup, so a customer passes for a staff member of their company. nil when the claims
    /// name no company.
    func confusedCustomer(_ token: String, now: Double) -> Authenticated? {
        guard case .success(let claims) = world.verifyRepairMinderToken(token, with: world.signers.customer, now: now),
            let companyID = claims.text("companyId"), let company = world.accounts.company(id: companyID),
            let email = claims.text("email"), let sessionID = claims.text("sessionId")
        else { return nil }
        // Whatever the claims say, nothing filled in: a customer token has no role, access level or permissions.
        let user = SandboxAccounts.StaffUser(
            id: claims.text("userId") ?? claims.text("clientId"), email: email, password: nil,
            role: claims.text("role") ?? "", companyID: companyID, phiAccessLevel: claims.text("phiAccessLevel") ?? "",
            dataClassification: claims.text("dataClassification") ?? "", permissions: [])
        return Authenticated(user: user, company: company, sessionID: sessionID)
    }
}

extension CustomerRoutes {
    /// Break `customer-role-confusion`: the customer middleware accepts a token the staff key verifies and never
    /// looks for `type: customer`; it takes the caller from the claims, so a staff member passes for a customer of
    /// their company. nil when the claims name no company or staff member.
    func confusedStaff(_ token: String, now: Double) -> Authenticated? {
        guard case .success(let claims) = world.verifyRepairMinderToken(token, with: world.signers.staff, now: now),
            let companyID = claims.text("companyId"), let company = world.accounts.company(id: companyID),
            let userID = claims.text("userId"),
            let email = world.accounts.staff.first(where: { $0.id == userID })?.email,
            let sessionID = claims.text("sessionId")
        else { return nil }
        return Authenticated(
            customer: SandboxAccounts.Customer(email: email, companyIDs: [companyID]), company: company,
            sessionID: sessionID)
    }
}
