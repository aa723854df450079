/// Staff sign-in (Repair Minder API, docs/systems/repairminder.md): password login that always asks for email 2FA, the 2FA request/verify pair
/// (which also takes TOTP and recovery codes from accounts with app-based 2FA), and the magic-link alternative.
struct StaffLoginRoutes: Sendable {
    let world: World
    var sessions: StaffSessions { StaffSessions(world: world) }

    var routes: [Route] {
        [
            Route("POST", "/api/auth/login") { request, _ in try login(request) },
            Route("POST", "/api/auth/2fa/request") { request, _ in try requestTwoFactor(request) },
            Route("POST", "/api/auth/2fa/verify") { request, _ in try verifyTwoFactor(request) },
            Route("POST", "/api/auth/magic-link/request") { request, _ in try requestMagicLink(request) },
            Route("POST", "/api/auth/magic-link/verify-code") { request, _ in try verifyMagicLink(request) },
        ]
    }

    // MARK: Password + 2FA

    func login(_ request: SandboxRequest) throws -> Reply {
        let body = try request.repairMinderBody()
        guard let email = body.text("email"), let password = body["password"]?.stringValue, !password.isEmpty else {
            return .error(400, "Email and password are required")
        }
        let invalid =
            world.has(.wrongErrorMessage)
            ? RepairMinderMessages.brokenInvalidCredentials : RepairMinderMessages.invalidCredentials
        guard let user = sessions.user(email: email) else { return .error(401, invalid) }
        // No hash to compare against, so this is decided before the password.
        guard let expected = user.password else { return .error(401, RepairMinderMessages.noPassword) }
        guard password == expected else { return .error(401, invalid) }
        return world.withState { state in
            if user.isArchived { return .error(401, RepairMinderMessages.archived) }
            if !sessions.isActive(user, in: state.staff) && !world.has(.deactivatedCanLogin) {
                return .error(401, RepairMinderMessages.deactivated)
            }
            if world.has(.twoFactorOptional) {
                return .ok(sessions.signIn(user, request: request, state: &state.staff))
            }
            state.staff.pendingTwoFactor[user.id] = request.now + world.accounts.lifetimes.twoFactorWindow
            return .ok([
                "requiresTwoFactor": true, "userId": .string(user.id), "email": .string(user.email),
                "user": RepairMinderJSON.loginUser(user),
            ])
        }
    }

    func requestTwoFactor(_ request: SandboxRequest) throws -> Reply {
        let body = try request.repairMinderBody()
        guard let userID = body.text("userId") else { return .error(400, "userId is required") }
        guard let user = sessions.user(id: userID) else { return .error(404, "User not found") }
        return world.withState { state in
            guard let windowEnd = state.staff.pendingTwoFactor[user.id], request.now < windowEnd else {
                return .error(401, RepairMinderMessages.twoFactorWindowClosed)
            }
            let code = state.staff.twoFactorCodes.issue(
                for: user.id, lifetime: world.accounts.lifetimes.code, now: request.now)
            state.outbox.send(
                to: user.email, channel: .email, code: code,
                subject: "Your Repair Minder verification code", now: request.now)
            return .ok(["message": .string(RepairMinderMessages.twoFactorSent)])
        }
    }

    func verifyTwoFactor(_ request: SandboxRequest) throws -> Reply {
        let body = try request.repairMinderBody()
        guard let userID = body.text("userId"), let code = body.text("code") else {
            return .error(400, "userId and code are required")
        }
        guard let user = sessions.user(id: userID) else {
            return .error(401, RepairMinderMessages.invalidVerificationCode)
        }
        return world.withState { state in
            guard let windowEnd = state.staff.pendingTwoFactor[user.id], request.now < windowEnd else {
                return .error(401, RepairMinderMessages.twoFactorWindowClosed)
            }
            let reusable = world.has(.codesReusable) || world.has(.totpReplayable) || world.has(.recoveryCodeReusable)
            // An authenticator or recovery code is tried first: it leaves the emailed code alone.
            if !redeemAppCode(code, for: user, now: request.now, state: &state.staff),
                !redeemAcceptedCode(code, for: user, now: request.now, state: &state.staff)
            {
                let expiresAt = state.staff.twoFactorCodes.expiry(for: user.id)
                guard
                    state.staff.twoFactorCodes.redeem(
                        code, for: user.id, now: request.now,
                        consume: !world.has(.codesReusable),
                        limitAttempts: !world.has(.noCodeAttemptLimit))
                else {
                    return .error(401, RepairMinderMessages.invalidVerificationCode)
                }
                if world.has(.codeSurvivesNewLogin), let expiresAt {
                    state.staff.acceptedTwoFactorCodes[user.id, default: [:]][code] = expiresAt
                }
            }
            if let refusal = accountRefusal(user, state: state.staff) { return refusal }
            if !reusable { state.staff.pendingTwoFactor[user.id] = nil }
            return .ok(sessions.signIn(user, request: request, state: &state.staff))
        }
    }

    /// App-based 2FA (Repair Minder API, Staff Login Flow, step 3 note): for an account with an authenticator
    /// secret, a TOTP code of the current 30 s step or one either side, never one at or before the step that
    /// last signed in (RFC 6238 section 5.2); or one of its recovery codes not used before, which is then used up.
    /// No `2fa/request` is needed for these: the code comes from the user's app or list, not from the email.
    private func redeemAppCode(
        _ code: String, for user: SandboxAccounts.StaffUser, now: Double, state: inout StaffState
    ) -> Bool {
        guard let secret = user.totpSecret, let key = SandboxTOTP.key(base32: secret) else { return false }
        if code.count == SandboxTOTP.digits, code.allSatisfy({ $0.isASCII && $0.isNumber }),
            !world.has(.totpNotAccepted)
        {
            let last = world.has(.totpReplayable) ? nil : state.lastTOTPStep[user.id]
            if let step = SandboxTOTP.acceptedStep(code, key: key, now: now, after: last) {
                state.lastTOTPStep[user.id] = max(step, state.lastTOTPStep[user.id] ?? step)
                return true
            }
        }
        if code.count == 8, !world.has(.recoveryCodeNotAccepted) {
            let presented = code.uppercased()
            let used = state.usedRecoveryCodes[user.id] ?? []
            if user.recoveryCodes.contains(where: { $0.uppercased() == presented }), !used.contains(presented) {
                if !world.has(.recoveryCodeReusable) { state.usedRecoveryCodes[user.id, default: []].insert(presented) }
                return true
            }
        }
        return false
    }

    /// Break `code-survives-new-login`: an emailed code that signed in before still signs in until it expires, in
    /// any later login of the account — the server ends the login (the window closes, so sending the same verify
    /// again at once is refused as "Two-factor session expired") but never marks the code used, and a new code
    /// does not replace it. Always false on a healthy sandbox, which keeps no accepted codes.
    private func redeemAcceptedCode(
        _ code: String, for user: SandboxAccounts.StaffUser, now: Double,
        state: inout StaffState
    ) -> Bool {
        guard world.has(.codeSurvivesNewLogin), var accepted = state.acceptedTwoFactorCodes[user.id] else {
            return false
        }
        accepted = accepted.filter { now < $0.value }
        state.acceptedTwoFactorCodes[user.id] = accepted
        return accepted[code] != nil
    }

    // MARK: Magic link

    func requestMagicLink(_ request: SandboxRequest) throws -> Reply {
        let body = try request.repairMinderBody()
        guard let email = body.text("email") else { return .error(400, "Email is required") }
        world.withState { state in
            // Always the same answer; a code goes out only to an account that may use magic links.
            guard let user = sessions.user(email: email), user.magicLinkEnabled || user.password == nil,
                sessions.canUseSession(user, in: state.staff)
            else { return }
            let code = state.staff.magicLinkCodes.issue(
                for: user.email.lowercased(), lifetime: world.accounts.lifetimes.code,
                now: request.now)
            state.outbox.send(
                to: user.email, channel: .email, code: code, subject: "Your Repair Minder login code",
                now: request.now)
        }
        return .ok(["message": .string(RepairMinderMessages.magicLinkSent)])
    }

    func verifyMagicLink(_ request: SandboxRequest) throws -> Reply {
        let body = try request.repairMinderBody()
        guard let email = body.text("email"), let code = body.text("code") else {
            return .error(400, "Email and code are required")
        }
        return world.withState { state in
            guard let user = sessions.user(email: email),
                state.staff.magicLinkCodes.redeem(
                    code, for: user.email.lowercased(), now: request.now,
                    consume: !world.has(.codesReusable))
            else { return .error(401, RepairMinderMessages.invalidOrExpiredCode) }
            if let refusal = accountRefusal(user, state: state.staff) { return refusal }
            return .ok(sessions.signIn(user, request: request, state: &state.staff))
        }
    }

    /// An account that changed since its code was sent still cannot sign in.
    private func accountRefusal(_ user: SandboxAccounts.StaffUser, state: StaffState) -> Reply? {
        if user.isArchived { return .error(401, RepairMinderMessages.archived) }
        if !sessions.isActive(user, in: state) && !world.has(.deactivatedCanLogin) {
            return .error(401, RepairMinderMessages.deactivated)
        }
        return nil
    }
}
