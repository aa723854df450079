/// Turns the YAML tree of an accounts file into `SandboxAccounts`, section by section, starting from the
/// defaults. Key names are snake_case, like the Repair Minder API.
struct AccountsReader {
    let file: String

    func read(_ root: YAMLCursor) throws(SandboxAccountsError) -> SandboxAccounts {
        let sections = try root.mapping(allowed: [
            "companies", "staff", "customers", "supabase", "traveling", "legacy", "lifetimes",
        ])
        var accounts = SandboxAccounts.defaults
        if let node = sections["companies"] {
            accounts.companies = try list(node, of: "companies", company)
            // The built-in people belong to the built-in companies: a file with its own companies starts
            // with no staff, customers or legacy users of its own unless it lists them.
            accounts.staff = []
            accounts.customers = []
            accounts.legacy.users = []
        }
        if let node = sections["staff"] {
            let firstCompany = accounts.companies.first?.id
            accounts.staff = try list(node, of: "staff users") { cursor throws(SandboxAccountsError) in
                try staffUser(cursor, defaultCompany: firstCompany)
            }
        }
        if let node = sections["customers"] { accounts.customers = try list(node, of: "customers", customer) }
        if let node = sections["supabase"] { accounts.supabase = try supabase(node) }
        if let node = sections["traveling"] { accounts.traveling = try traveling(node) }
        if let node = sections["legacy"] {
            let firstCompany = accounts.companies.first?.id
            accounts.legacy = try legacy(node, defaultCompany: firstCompany)
        }
        if let node = sections["lifetimes"] { accounts.lifetimes = try lifetimes(node) }
        return accounts
    }

    private func list<T>(
        _ cursor: YAMLCursor, of what: String,
        _ element: (YAMLCursor) throws(SandboxAccountsError) -> T
    ) throws(SandboxAccountsError) -> [T] {
        var values: [T] = []
        for item in try cursor.sequence(of: what) { values.append(try element(item)) }
        return values
    }

    private func company(_ cursor: YAMLCursor) throws(SandboxAccountsError) -> SandboxAccounts.Company {
        let f = try cursor.mapping(allowed: [
            "id", "name", "status", "currency_code", "vat_number", "logo_url",
            "vat_rate_repair", "vat_rate_device_sale", "vat_rate_accessory",
            "vat_rate_device_purchase",
        ])
        guard let idNode = f["id"] else { throw cursor.fail("missing key `id` (the company id)") }
        let id = try idNode.nonEmptyString()
        var company = SandboxAccounts.Company(id: id, name: try f["name"]?.nonEmptyString() ?? id)
        if let node = f["status"] {
            company.status = SandboxAccounts.CompanyStatus(
                rawValue: try node.oneOf(SandboxAccounts.CompanyStatus.allCases.map(\.rawValue)))!
        }
        if let node = f["currency_code"] { company.currencyCode = try node.nonEmptyString() }
        if let node = f["vat_number"] { company.vatNumber = try node.optionalString() }
        if let node = f["logo_url"] { company.logoURL = try node.optionalString() }
        if let node = f["vat_rate_repair"] { company.vatRateRepair = try node.nonEmptyString() }
        if let node = f["vat_rate_device_sale"] { company.vatRateDeviceSale = try node.nonEmptyString() }
        if let node = f["vat_rate_accessory"] { company.vatRateAccessory = try node.nonEmptyString() }
        if let node = f["vat_rate_device_purchase"] { company.vatRateDevicePurchase = try node.nonEmptyString() }
        return company
    }

    private func staffUser(_ cursor: YAMLCursor, defaultCompany: String?) throws(SandboxAccountsError)
        -> SandboxAccounts.StaffUser
    {
        let f = try cursor.mapping(allowed: [
            "id", "email", "password", "first_name", "last_name", "role", "company",
            "active", "archived", "magic_link_enabled", "phi_access_level",
            "data_classification", "permissions", "totp_secret", "recovery_codes",
        ])
        guard let emailNode = f["email"] else { throw cursor.fail("missing key `email`") }
        guard let company = try f["company"]?.nonEmptyString() ?? defaultCompany else {
            throw cursor.fail("missing key `company` (and there is no company to default to)")
        }
        var user = SandboxAccounts.StaffUser(
            id: try f["id"]?.nonEmptyString(), email: try emailNode.nonEmptyString(),
            password: try f["password"]?.optionalString(), companyID: company)
        if let node = f["first_name"] { user.firstName = try node.optionalString() }
        if let node = f["last_name"] { user.lastName = try node.optionalString() }
        if let node = f["role"] { user.role = try node.oneOf(SandboxAccounts.staffRoles) }
        if let node = f["active"] { user.isActive = try node.bool() }
        if let node = f["archived"] { user.isArchived = try node.bool() }
        if let node = f["magic_link_enabled"] { user.magicLinkEnabled = try node.bool() }
        if let node = f["phi_access_level"] { user.phiAccessLevel = try node.nonEmptyString() }
        if let node = f["data_classification"] { user.dataClassification = try node.nonEmptyString() }
        if let node = f["permissions"] { user.permissions = try node.stringList(of: "permission names") }
        if let node = f["totp_secret"] { user.totpSecret = try totpSecret(node) }
        if let node = f["recovery_codes"] {
            user.recoveryCodes = try recoveryCodes(node)
            if !user.recoveryCodes.isEmpty, user.totpSecret == nil {
                throw node.fail("recovery codes come with app-based 2FA: give this account a `totp_secret` too")
            }
        }
        return user
    }

    /// Base32 as authenticator apps show it (spaces and `=` padding allowed), at least 16 characters (80 bits).
    private func totpSecret(_ cursor: YAMLCursor) throws(SandboxAccountsError) -> String? {
        guard let secret = try cursor.optionalString() else { return nil }
        guard let key = SandboxTOTP.key(base32: secret), key.count >= 10 else {
            throw cursor.fail(
                "expected a base32 authenticator secret (letters A-Z and digits 2-7, at least 16 of them)")
        }
        return secret
    }

    private func recoveryCodes(_ cursor: YAMLCursor) throws(SandboxAccountsError) -> [String] {
        var codes: [String] = []
        var seen: Set<String> = []
        for item in try cursor.sequence(of: "recovery codes") {
            let code = try item.nonEmptyString()
            guard code.count == 8, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw item.fail("expected a recovery code of exactly 8 letters and digits, got \(item.found)")
            }
            guard seen.insert(code.uppercased()).inserted else { throw item.fail("this recovery code is listed twice") }
            codes.append(code)
        }
        return codes
    }

    private func customer(_ cursor: YAMLCursor) throws(SandboxAccountsError) -> SandboxAccounts.Customer {
        let f = try cursor.mapping(allowed: ["email", "first_name", "last_name", "companies"])
        guard let emailNode = f["email"] else { throw cursor.fail("missing key `email`") }
        guard let companiesNode = f["companies"] else {
            throw cursor.fail("missing key `companies` (a list of company ids)")
        }
        let companies = try companiesNode.stringList(of: "company ids")
        guard !companies.isEmpty else {
            throw companiesNode.fail("expected at least one company id, got an empty list")
        }
        return SandboxAccounts.Customer(
            email: try emailNode.nonEmptyString(), firstName: try f["first_name"]?.optionalString(),
            lastName: try f["last_name"]?.optionalString(), companyIDs: companies)
    }

    private func supabase(_ cursor: YAMLCursor) throws(SandboxAccountsError) -> SandboxAccounts.Supabase {
        let f = try cursor.mapping(allowed: [
            "anon_key", "test_phones", "send_interval", "otp_lifetime",
            "access_token_lifetime", "refresh_reuse_interval",
        ])
        var settings = SandboxAccounts.defaults.supabase
        if let node = f["anon_key"] { settings.anonKey = try node.nonEmptyString() }
        if let node = f["test_phones"] { settings.testPhones = try testPhones(node) }
        if let node = f["send_interval"] { settings.sendInterval = try node.duration() }
        if let node = f["otp_lifetime"] { settings.otpLifetime = try node.duration() }
        if let node = f["access_token_lifetime"] { settings.accessTokenLifetime = try node.duration() }
        if let node = f["refresh_reuse_interval"] {
            settings.refreshReuseInterval = try node.duration(allowingZero: true)
        }
        return settings
    }

    /// `{"+15555550100": "123456"}`; keys are stored with a leading `+` whichever way they were written.
    private func testPhones(_ cursor: YAMLCursor) throws(SandboxAccountsError) -> [String: String] {
        guard case .mapping(let mapping) = cursor.node else {
            throw cursor.fail("expected a mapping of E.164 phone numbers to 6-digit codes, got \(cursor.found)")
        }
        var phones: [String: String] = [:]
        for (keyNode, valueNode) in mapping {
            let raw = keyNode.scalar?.string ?? ""
            let entry = YAMLCursor(node: valueNode, path: "\(cursor.path).\(raw)", file: file)
            guard let digits = PhoneNumber.normalise(raw) else {
                throw SandboxAccountsError(
                    file: file, line: keyNode.mark?.line, column: keyNode.mark?.column,
                    key: entry.path, problem: "expected an E.164 phone number like \"+15555550100\"")
            }
            let code = try entry.string()
            guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw entry.fail("expected a 6-digit code (quote it to keep leading zeros), got \(entry.found)")
            }
            guard phones["+" + digits] == nil else { throw entry.fail("this phone number is listed twice") }
            phones["+" + digits] = code
        }
        return phones
    }

    private func traveling(_ cursor: YAMLCursor) throws(SandboxAccountsError) -> SandboxAccounts.Traveling {
        let f = try cursor.mapping(allowed: ["users", "access_token_lifetime", "refresh_token_lifetime"])
        var settings = SandboxAccounts.defaults.traveling
        if let node = f["users"] {
            var users: [SandboxAccounts.TravelingUser] = []
            for (index, item) in try node.sequence(of: "Traveling users").enumerated() {
                let u = try item.mapping(allowed: ["id", "email", "password", "first_name", "last_name"])
                guard let email = u["email"] else { throw item.fail("missing key `email`") }
                guard let password = u["password"] else { throw item.fail("missing key `password`") }
                users.append(
                    SandboxAccounts.TravelingUser(
                        id: try u["id"]?.int() ?? index + 1, email: try email.nonEmptyString(),
                        password: try password.string(), firstName: try u["first_name"]?.string() ?? "",
                        lastName: try u["last_name"]?.string() ?? ""))
            }
            settings.users = users
        }
        if let node = f["access_token_lifetime"] { settings.accessTokenLifetime = try node.duration() }
        if let node = f["refresh_token_lifetime"] { settings.refreshTokenLifetime = try node.duration() }
        return settings
    }

    private func legacy(_ cursor: YAMLCursor, defaultCompany: String?) throws(SandboxAccountsError)
        -> SandboxAccounts.Legacy
    {
        let f = try cursor.mapping(allowed: ["users"])
        guard let node = f["users"] else { return SandboxAccounts.defaults.legacy }
        var users: [SandboxAccounts.LegacyUser] = []
        for item in try node.sequence(of: "legacy users") {
            let u = try item.mapping(allowed: [
                "id", "email", "password", "username", "first_name", "last_name", "role",
                "company", "login",
            ])
            guard let email = u["email"] else { throw item.fail("missing key `email`") }
            guard let password = u["password"] else { throw item.fail("missing key `password`") }
            guard let company = try u["company"]?.nonEmptyString() ?? defaultCompany else {
                throw item.fail("missing key `company` (and there is no company to default to)")
            }
            var user = SandboxAccounts.LegacyUser(
                id: try u["id"]?.nonEmptyString(), email: try email.nonEmptyString(), password: try password.string(),
                username: try u["username"]?.nonEmptyString(), firstName: try u["first_name"]?.optionalString(),
                lastName: try u["last_name"]?.optionalString(), companyID: company)
            if let node = u["role"] { user.role = try node.oneOf(SandboxAccounts.staffRoles) }
            if let node = u["login"] {
                user.login = SandboxAccounts.LegacyLoginMode(
                    rawValue: try node.oneOf(SandboxAccounts.LegacyLoginMode.allCases.map(\.rawValue)))!
            }
            users.append(user)
        }
        return SandboxAccounts.Legacy(users: users)
    }

    private func lifetimes(_ cursor: YAMLCursor) throws(SandboxAccountsError) -> SandboxAccounts.Lifetimes {
        let f = try cursor.mapping(allowed: [
            "access_token", "refresh_token_web", "refresh_token_mobile", "code",
            "two_factor_window", "customer_token",
        ])
        var lifetimes = SandboxAccounts.Lifetimes()
        if let node = f["access_token"] { lifetimes.accessToken = try node.duration() }
        if let node = f["refresh_token_web"] { lifetimes.refreshTokenWeb = try node.duration() }
        if let node = f["refresh_token_mobile"] { lifetimes.refreshTokenMobile = try node.duration() }
        if let node = f["code"] { lifetimes.code = try node.duration() }
        if let node = f["two_factor_window"] { lifetimes.twoFactorWindow = try node.duration() }
        if let node = f["customer_token"] { lifetimes.customerToken = try node.duration() }
        return lifetimes
    }
}
