/// Everything the sandbox knows before the first request: companies, staff, customers, the Supabase
/// project, Traveling and legacy users, and the lifetimes of tokens and codes.
///
/// Load it from a file with `SandboxAccounts.load(path:)`, start from `.defaults`, or build one in code
/// (to change a lifetime; to let one pass without waiting, start the sandbox with a `SandboxClock` you move).
public struct SandboxAccounts: Sendable, Equatable {
    public var companies: [Company]
    public var staff: [StaffUser]
    public var customers: [Customer]
    public var supabase: Supabase
    public var traveling: Traveling
    public var legacy: Legacy
    public var lifetimes: Lifetimes

    public init(
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
    public enum CompanyStatus: String, Sendable, CaseIterable {
        case active
        case pendingApproval = "pending_approval"
        case suspended

        var isQuarantined: Bool { self != .active }
    }

    public struct Company: Sendable, Equatable {
        public var id: String
        public var name: String
        public var status: CompanyStatus
        public var currencyCode: String
        public var vatNumber: String?
        public var logoURL: String?
        public var vatRateRepair: String
        public var vatRateDeviceSale: String
        public var vatRateAccessory: String
        public var vatRateDevicePurchase: String

        public init(
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
    public static let staffRoles = ["master_admin", "admin", "senior_engineer", "engineer", "office"]

    public struct StaffUser: Sendable, Equatable {
        public var id: String
        public var email: String
        /// `nil`: no password set, so password login answers "No password set…".
        public var password: String?
        public var firstName: String?
        public var lastName: String?
        public var role: String
        public var companyID: String
        public var isActive: Bool
        public var isArchived: Bool
        public var magicLinkEnabled: Bool
        public var phiAccessLevel: String
        public var dataClassification: String
        public var permissions: [String]
        /// App-based 2FA: the authenticator secret (base32, RFC 6238: HMAC-SHA-1, 6 digits, 30 s). `nil`: email codes only.
        public var totpSecret: String?
        /// App-based 2FA: single-use recovery codes, 8 letters and digits each (Repair Minder API, Staff Login Flow, step 3 note).
        public var recoveryCodes: [String]

        public init(
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
    public struct Customer: Sendable, Equatable {
        public var email: String
        public var firstName: String?
        public var lastName: String?
        /// In the order the company-selection answer lists them.
        public var companyIDs: [String]

        public init(email: String, firstName: String? = nil, lastName: String? = nil, companyIDs: [String]) {
            self.email = email
            self.firstName = firstName
            self.lastName = lastName
            self.companyIDs = companyIDs
        }

        public func clientID(in companyID: String) -> String {
            Secrets.stableID("client:" + email.lowercased() + ":" + companyID)
        }

        var fullName: String? {
            let parts = [firstName, lastName].compactMap { $0 }.filter { !$0.isEmpty }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        }
    }

    /// The Supabase Auth project (docs/systems/supabase-auth.md).
    public struct Supabase: Sendable, Equatable {
        public var anonKey: String
        /// Test phone numbers (E.164, e.g. "+15555550100") and their fixed codes, like GoTrue's `sms_test_otp`.
        public var testPhones: [String: String]
        /// One SMS per phone per this many seconds.
        public var sendInterval: Double
        public var otpLifetime: Double
        public var accessTokenLifetime: Double
        /// GoTrue's `GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL`: for this many seconds after a refresh token was
        /// rotated out it may still be swapped; after that, presenting it (unless it is the parent of the active
        /// token) answers `refresh_token_already_used` and revokes the session's tokens. 0 like self-hosted GoTrue
        /// (hosted projects use 10).
        public var refreshReuseInterval: Double

        public init(
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

    public struct TravelingUser: Sendable, Equatable {
        /// The Traveling API (docs/systems/traveling.md, Backend Requirements) shows a numeric id at login (`"id": 1`) and a string at /me (`"id": "123"`).
        public var id: Int
        public var email: String
        public var password: String
        public var firstName: String
        public var lastName: String

        public init(id: Int, email: String, password: String, firstName: String, lastName: String) {
            self.id = id
            self.email = email
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
        }
    }

    public struct Traveling: Sendable, Equatable {
        public var users: [TravelingUser]
        public var accessTokenLifetime: Double
        public var refreshTokenLifetime: Double

        public init(
            users: [TravelingUser] = [], accessTokenLifetime: Double = 900, refreshTokenLifetime: Double = 7 * 86400
        ) {
            self.users = users
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
        }
    }

    /// How the legacy Repair Minder backend answers a correct password.
    public enum LegacyLoginMode: String, Sendable, CaseIterable {
        /// `requiresTwoFactor`, a code by email, then login again with `twoFactorToken`.
        case twoFactor = "two_factor"
        /// `requiresMagicLink` (the account must use a magic link).
        case magicLink = "magic_link"
        /// Tokens straight away.
        case password
    }

    public struct LegacyUser: Sendable, Equatable {
        public var id: String
        public var email: String
        public var password: String
        public var username: String
        public var firstName: String?
        public var lastName: String?
        public var role: String
        public var companyID: String
        public var login: LegacyLoginMode

        public init(
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

    public struct Legacy: Sendable, Equatable {
        public var users: [LegacyUser]
        public init(users: [LegacyUser] = []) { self.users = users }
    }

    /// Seconds. Defaults from the Repair Minder API (docs/systems/repairminder.md, Token Lifetimes: access 15 min, refresh 7 days web / 90 days mobile) and the brief
    /// (codes 10 min); the rest are sandbox choices documented in docs/sandbox.md.
    public struct Lifetimes: Sendable, Equatable {
        public var accessToken: Double
        public var refreshTokenWeb: Double
        public var refreshTokenMobile: Double
        /// 2FA, staff magic-link, customer magic-link and legacy 2FA codes.
        public var code: Double
        /// How long after a correct password `/api/auth/2fa/request` and `/verify` are accepted.
        public var twoFactorWindow: Double
        /// Customer portal JWTs (they come without a refresh token).
        public var customerToken: Double

        public init(
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
