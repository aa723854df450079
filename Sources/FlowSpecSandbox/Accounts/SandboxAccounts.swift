/// Everything the sandbox knows before the first request: companies, staff, customers, the Supabase
/// project, Traveling and legacy users, and the lifetimes of tokens and codes.
///
/// Load it from a file with `SandboxAccounts.load(path:)`, start from `.defaults`, or build one in code
/// (to change a lifetime; to let one pass without waiting, start the sandbox with a `SandboxClock` you move).
// Public only for the fuzz package (`fuzz-accounts` parses accounts files); the rest of the sandbox is `package`.
package struct SandboxAccounts: Sendable, Equatable {
    package var companies: [Company]
    package var staff: [StaffUser]
    package var customers: [Customer]
    package var supabase: Supabase
    package var traveling: Traveling
    package var legacy: Legacy
    package var lifetimes: Lifetimes

    package init(
        companies: [Company] = [], staff: [StaffUser] = [], customers: [Customer] = [],
        supabase: Supabase = Supabase(), traveling: Traveling = Traveling(), legacy: Legacy = Legacy(),
        lifetimes: Lifetimes = Lifetimes()
    ) {
        self.companies = companies
        self.staff = staff
        self.customers = customers
        self.supabase = supabase
        self.traveling = traveling
        self.legacy = legacy
        self.lifetimes = lifetimes
    }

    func company(id: String) -> Company? {
        companies.first { $0.id == id }
    }
}

extension SandboxAccounts {
    /// Company status as the Repair Minder API lists it (docs/systems/repairminder.md, Company Model); `pending_approval` and `suspended` put the company's staff in quarantine.
    package enum CompanyStatus: String, Sendable, CaseIterable {
        case active
        case pendingApproval = "pending_approval"
        case suspended

        var isQuarantined: Bool { self != .active }
    }

    package struct Company: Sendable, Equatable {
        package var id: String
        package var name: String
        package var status: CompanyStatus
        package var currencyCode: String
        package var vatNumber: String?
        package var logoURL: String?
        package var vatRateRepair: String
        package var vatRateDeviceSale: String
        package var vatRateAccessory: String
        package var vatRateDevicePurchase: String

        package init(
            id: String, name: String, status: CompanyStatus = .active, currencyCode: String = "GBP",
            vatNumber: String? = nil, logoURL: String? = nil, vatRateRepair: String = "20.00",
            vatRateDeviceSale: String = "20.00", vatRateAccessory: String = "20.00",
            vatRateDevicePurchase: String = "0.00"
        ) {
            self.id = id
            self.name = name
            self.status = status
            self.currencyCode = currencyCode
            self.vatNumber = vatNumber
            self.logoURL = logoURL
            self.vatRateRepair = vatRateRepair
            self.vatRateDeviceSale = vatRateDeviceSale
            self.vatRateAccessory = vatRateAccessory
            self.vatRateDevicePurchase = vatRateDevicePurchase
        }
    }

    /// Roles from the Repair Minder API's `UserRole` (docs/systems/repairminder.md, UserRole).
    package static let staffRoles = ["master_admin", "admin", "senior_engineer", "engineer", "office"]

    package struct StaffUser: Sendable, Equatable {
        package var id: String
        package var email: String
        /// `nil`: no password set, so password login answers "No password set…".
        package var password: String?
        package var firstName: String?
        package var lastName: String?
        package var role: String
        package var companyID: String
        package var isActive: Bool
        package var isArchived: Bool
        package var magicLinkEnabled: Bool
        package var phiAccessLevel: String
        package var dataClassification: String
        package var permissions: [String]
        /// App-based 2FA: the authenticator secret (base32, RFC 6238: HMAC-SHA-1, 6 digits, 30 s). `nil`: email codes only.
        package var totpSecret: String?
        /// App-based 2FA: single-use recovery codes, 8 letters and digits each (Repair Minder API, Staff Login Flow, step 3 note).
        package var recoveryCodes: [String]

        package init(
            id: String? = nil, email: String, password: String?, firstName: String? = nil,
            lastName: String? = nil, role: String = "admin", companyID: String, isActive: Bool = true,
            isArchived: Bool = false, magicLinkEnabled: Bool = false, phiAccessLevel: String = "full",
            dataClassification: String = "internal", permissions: [String] = [], totpSecret: String? = nil,
            recoveryCodes: [String] = []
        ) {
            self.id = id ?? Secrets.stableID("staff:" + email.lowercased())
            self.email = email
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
            self.role = role
            self.companyID = companyID
            self.isActive = isActive
            self.isArchived = isArchived
            self.magicLinkEnabled = magicLinkEnabled
            self.phiAccessLevel = phiAccessLevel
            self.dataClassification = dataClassification
            self.permissions = permissions
            self.totpSecret = totpSecret
            self.recoveryCodes = recoveryCodes
        }
    }

    /// A customer known to one or more companies. Repair Minder keeps one client record per company, so the
    /// client id depends on the company (see `clientID(in:)`).
    package struct Customer: Sendable, Equatable {
        package var email: String
        package var firstName: String?
        package var lastName: String?
        /// In the order the company-selection answer lists them.
        package var companyIDs: [String]

        package init(email: String, firstName: String? = nil, lastName: String? = nil, companyIDs: [String]) {
            self.email = email
            self.firstName = firstName
            self.lastName = lastName
            self.companyIDs = companyIDs
        }

        package func clientID(in companyID: String) -> String {
            Secrets.stableID("client:" + email.lowercased() + ":" + companyID)
        }

        var fullName: String? {
            let parts = [firstName, lastName].compactMap { $0 }.filter { !$0.isEmpty }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        }
    }

    /// The Supabase Auth project (docs/systems/supabase-auth.md).
    package struct Supabase: Sendable, Equatable {
        package var anonKey: String
        /// Test phone numbers (E.164, e.g. "+15555550100") and their fixed codes, like GoTrue's `sms_test_otp`.
        package var testPhones: [String: String]
        /// One SMS per phone per this many seconds.
        package var sendInterval: Double
        package var otpLifetime: Double
        package var accessTokenLifetime: Double
        /// GoTrue's `GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL`: for this many seconds after a refresh token was
        /// rotated out it may still be swapped; after that, presenting it (unless it is the parent of the active
        /// token) answers `refresh_token_already_used` and revokes the session's tokens. 0 like self-hosted GoTrue
        /// (hosted projects use 10).
        package var refreshReuseInterval: Double

        package init(
            anonKey: String = "sandbox-anon-key", testPhones: [String: String] = [:], sendInterval: Double = 60,
            otpLifetime: Double = 60, accessTokenLifetime: Double = 3600, refreshReuseInterval: Double = 0
        ) {
            self.refreshReuseInterval = refreshReuseInterval
            self.anonKey = anonKey
            self.testPhones = testPhones
            self.sendInterval = sendInterval
            self.otpLifetime = otpLifetime
            self.accessTokenLifetime = accessTokenLifetime
        }
    }

    package struct TravelingUser: Sendable, Equatable {
        /// The Traveling API (docs/systems/traveling.md, Backend Requirements) shows a numeric id at login (`"id": 1`) and a string at /me (`"id": "123"`).
        package var id: Int
        package var email: String
        package var password: String
        package var firstName: String
        package var lastName: String

        package init(id: Int, email: String, password: String, firstName: String, lastName: String) {
            self.id = id
            self.email = email
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
        }
    }

    package struct Traveling: Sendable, Equatable {
        package var users: [TravelingUser]
        package var accessTokenLifetime: Double
        package var refreshTokenLifetime: Double

        package init(
            users: [TravelingUser] = [], accessTokenLifetime: Double = 900, refreshTokenLifetime: Double = 7 * 86400
        ) {
            self.users = users
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
        }
    }

    /// How the legacy Repair Minder backend answers a correct password.
    package enum LegacyLoginMode: String, Sendable, CaseIterable {
        /// `requiresTwoFactor`, a code by email, then login again with `twoFactorToken`.
        case twoFactor = "two_factor"
        /// `requiresMagicLink` (the account must use a magic link).
        case magicLink = "magic_link"
        /// Tokens straight away.
        case password
    }

    package struct LegacyUser: Sendable, Equatable {
        package var id: String
        package var email: String
        package var password: String
        package var username: String
        package var firstName: String?
        package var lastName: String?
        package var role: String
        package var companyID: String
        package var login: LegacyLoginMode

        package init(
            id: String? = nil, email: String, password: String, username: String? = nil,
            firstName: String? = nil, lastName: String? = nil, role: String = "admin", companyID: String,
            login: LegacyLoginMode = .twoFactor
        ) {
            self.id = id ?? Secrets.stableID("legacy:" + email.lowercased())
            self.email = email
            self.password = password
            self.username = username ?? String(email.prefix { $0 != "@" })
            self.firstName = firstName
            self.lastName = lastName
            self.role = role
            self.companyID = companyID
            self.login = login
        }
    }

    package struct Legacy: Sendable, Equatable {
        package var users: [LegacyUser]
        package init(users: [LegacyUser] = []) { self.users = users }
    }

    /// Seconds. Defaults from the Repair Minder API (docs/systems/repairminder.md, Token Lifetimes: access 15 min, refresh 7 days web / 90 days mobile) and the brief
    /// (codes 10 min); the rest are sandbox choices documented in docs/sandbox.md.
    package struct Lifetimes: Sendable, Equatable {
        package var accessToken: Double
        package var refreshTokenWeb: Double
        package var refreshTokenMobile: Double
        /// 2FA, staff magic-link, customer magic-link and legacy 2FA codes.
        package var code: Double
        /// How long after a correct password `/api/auth/2fa/request` and `/verify` are accepted.
        package var twoFactorWindow: Double
        /// Customer portal JWTs (they come without a refresh token).
        package var customerToken: Double

        package init(
            accessToken: Double = 900, refreshTokenWeb: Double = 7 * 86400, refreshTokenMobile: Double = 90 * 86400,
            code: Double = 600, twoFactorWindow: Double = 900, customerToken: Double = 7 * 86400
        ) {
            self.accessToken = accessToken
            self.refreshTokenWeb = refreshTokenWeb
            self.refreshTokenMobile = refreshTokenMobile
            self.code = code
            self.twoFactorWindow = twoFactorWindow
            self.customerToken = customerToken
        }
    }
}
