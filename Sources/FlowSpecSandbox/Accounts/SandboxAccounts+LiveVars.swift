extension SandboxAccounts {
    /// The live suite's variables, each pointing at an account of the kind its name promises.
    func liveVars(baseURL: String, legacyURL: String) -> [String: String] {
        var vars: [String: String] = [
            "repairminder_url": baseURL,
            "supabase_url": baseURL,
            "supabase_anon_key": supabase.anonKey,
            // Seconds; the refresh-reuse scenario waits this out before presenting an older refresh token.
            "supabase_refresh_reuse_interval": Self.seconds(supabase.refreshReuseInterval),
            // The per-phone SMS interval is a setting of the backend; the live suite checks it only when positive.
            "sms_send_interval_seconds": Self.seconds(supabase.sendInterval),
            "traveling_url": baseURL,
            "legacy_url": legacyURL,
            // The runner exports a flow's inputs as environment variables; `${email}` is for the shell.
            "email_code_command": Self.codeCommand(baseURL: baseURL),
            "legacy_code_command": Self.codeCommand(baseURL: baseURL),
            // No document names the customer logout endpoint; this is where the sandbox serves it.
            "customer_logout_path": "/api/customer/auth/logout",
            // Customer logout ends the session here, so the token can be probed before and after it.
            "customer_me_path": "/api/customer/auth/me",
            // A staff endpoint outside the quarantine allow-list (no document names one).
            "orders_path": "/api/orders",
            // The legacy description names the login call, not its path.
            "legacy_login_path": "/api/auth/login",
            // Promises the documents do not make but this sandbox keeps, so the live suite checks them here.
            "login_codes_single_use": "true",
            "traveling_refresh_rotation": "true",
            // The sandbox enforces expiry to the second.
            "expiry_leeway_seconds": "0",
            // No document states an attempt limit for login codes: the sandbox burns a code at its fifth wrong guess.
            "login_code_max_attempts": String(OneTimeCodes<String>.maxWrongAttempts),
            // The sandbox-only staff notes (/api/sandbox/notes) exist here, for the probe's cross-user check.
            "sandbox_notes": "true",
        ]
        func staff(where matches: (StaffUser, Company) -> Bool) -> StaffUser? {
            self.staff.first { user in company(id: user.companyID).map { matches(user, $0) } ?? false }
        }
        let usable: (StaffUser, Company) -> Bool = { user, company in
            user.isActive && !user.isArchived && company.status == .active
        }
        if let user = staff(where: { usable($0, $1) && $0.password != nil }) {
            vars["staff_email"] = user.email
            vars["staff_password"] = user.password
            // Another user of the same role (of the same company where there is one), so that a cross-user check
            // differs from the owner only in who is asking.
            let peer: (StaffUser, Company) -> Bool = {
                usable($0, $1) && $0.password != nil && $0.id != user.id && $0.role == user.role
            }
            if let second = staff(where: { peer($0, $1) && $0.companyID == user.companyID }) ?? staff(where: peer) {
                vars["staff2_email"] = second.email
                vars["staff2_password"] = second.password
            }
        }
        if let user = staff(where: { usable($0, $1) && $0.password != nil && $0.totpSecret != nil }),
            let password = user.password, let secret = user.totpSecret
        {
            vars["totp_staff_email"] = user.email
            vars["totp_staff_password"] = password
            vars["totp_secret"] = secret
            // One unused code: the live suite uses it up. Another run against the same sandbox needs another
            // of the account's codes (`--var recovery_code=…`) or a fresh sandbox (docs/sandbox.md).
            if let code = user.recoveryCodes.first { vars["recovery_code"] = code }
        }
        if let user = staff(where: { usable($0, $1) && $0.magicLinkEnabled && $0.password != nil })
            ?? staff(where: { usable($0, $1) && $0.magicLinkEnabled })
        {
            vars["magic_staff_email"] = user.email
        }
        if let user = staff(where: { user, _ in !user.isActive && !user.isArchived && user.password != nil }) {
            vars["deactivated_email"] = user.email
            vars["deactivated_password"] = user.password
        }
        if let user = staff(where: {
            $0.isActive && !$0.isArchived && $0.password != nil && $1.status == .pendingApproval
        })
            ?? staff(where: { $0.isActive && !$0.isArchived && $0.password != nil && $1.status.isQuarantined })
        {
            vars["quarantined_email"] = user.email
            vars["quarantined_password"] = user.password
        }
        if let user = staff(where: { user, _ in user.isActive && !user.isArchived && user.password == nil }) {
            vars["nopassword_email"] = user.email
        }
        if let user = staff(where: { user, _ in user.isArchived && user.password != nil }) {
            vars["archived_email"] = user.email
            vars["archived_password"] = user.password
        }
        if let customer = customers.first(where: { $0.companyIDs.count == 1 }) {
            vars["customer_email"] = customer.email
        }
        if let customer = customers.first(where: { $0.companyIDs.count >= 2 }), let last = customer.companyIDs.last {
            // The last company, never the first: a client that ignores companyId lands in the first one.
            vars["multi_customer_email"] = customer.email
            vars["multi_customer_company_id"] = last
        }
        if let (phone, code) = supabase.testPhones.sorted(by: { $0.key < $1.key }).first {
            vars["phone"] = phone
            vars["phone_otp"] = code
            // A phone that is not a test number gets real, single-use codes through the outbox.
            var candidate = 15_555_550_123
            while supabase.testPhones["+\(candidate)"] != nil { candidate += 1 }
            vars["sms_phone"] = "+\(candidate)"
            vars["sms_code_command"] =
                "curl -fsS -G --data-urlencode \"to=${phone}\" \(baseURL)/__sandbox/outbox/latest"
        }
        if let user = traveling.users.first {
            vars["traveling_email"] = user.email
            vars["traveling_password"] = user.password
        }
        if let user = legacy.users.first(where: { $0.login == .twoFactor }) ?? legacy.users.first {
            vars["legacy_email"] = user.email
            vars["legacy_password"] = user.password
        }
        return vars
    }

    /// A whole number of seconds without a fraction, else the decimal.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Prints only the latest code sent to `$email` (curl exits non-zero on 404, so "no code" is a failure).
    static func codeCommand(baseURL: String) -> String {
        "curl -fsS -G --data-urlencode \"to=${email}\" \(baseURL)/__sandbox/outbox/latest"
    }
}
