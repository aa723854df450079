extension SandboxAccounts {
    /// Readable UUID-shaped ids, so a QA engineer can tell the companies apart in a response at a glance.
    enum DefaultIDs {
        static let acme = "11111111-1111-4111-8111-111111111111"
        static let beta = "22222222-2222-4222-8222-222222222222"
        static let pending = "33333333-3333-4333-8333-333333333333"
        static let suspended = "44444444-4444-4444-8444-444444444444"
    }

    /// The app-based 2FA account's authenticator secret (base32, 160 bits) and recovery codes.
    static let defaultTOTPSecret = "FT67YDX6Z7NYV676N6B4AFIBR2DNHAD4"
    static let defaultRecoveryCodes = [
        "2A2LQPWW", "T6CCV85D", "UKRBPUR4", "VUST8BE5", "MMPX8V2M",
        "ZQJHFDVS", "D6VLN9TE", "HLA5E9KQ", "KTJY569B", "Q3FFFLYM",
    ]

    /// The built-in accounts: one of each kind the live suite needs (see the table in docs/sandbox.md).
    package static let defaults = SandboxAccounts(
        companies: [
            Company(
                id: DefaultIDs.acme, name: "Acme Repairs", vatNumber: "GB123456789",
                logoURL: "https://api.repairminder.com/api/branding/\(DefaultIDs.acme)/logo"),
            Company(id: DefaultIDs.beta, name: "Beta Tech"),
            Company(id: DefaultIDs.pending, name: "Pending Phones Ltd", status: .pendingApproval),
            Company(id: DefaultIDs.suspended, name: "Suspended Fixers", status: .suspended),
        ],
        staff: [
            StaffUser(
                email: "staff@example.com", password: "correct-horse", firstName: "John", lastName: "Doe",
                role: "admin", companyID: DefaultIDs.acme),
            // A second account of the first one's role and company: another user for the probe's cross-user checks.
            StaffUser(
                email: "staff2@example.com", password: "second-horse", firstName: "Stan", lastName: "Second",
                role: "admin", companyID: DefaultIDs.acme),
            StaffUser(
                email: "magic@example.com", password: "magic-horse", firstName: "Mia", lastName: "Magic",
                role: "engineer", companyID: DefaultIDs.acme, magicLinkEnabled: true),
            StaffUser(
                email: "nopass@example.com", password: nil, firstName: "Nora", lastName: "Nopass",
                role: "office", companyID: DefaultIDs.acme, magicLinkEnabled: true),
            StaffUser(
                email: "deactivated@example.com", password: "deactivated-horse", firstName: "Dan",
                lastName: "Deactivated", role: "engineer", companyID: DefaultIDs.acme, isActive: false),
            StaffUser(
                email: "archived@example.com", password: "archived-horse", firstName: "Arch",
                lastName: "Ived", role: "engineer", companyID: DefaultIDs.acme, isArchived: true),
            StaffUser(
                email: "pending@example.com", password: "pending-horse", firstName: "Penny",
                lastName: "Pending", role: "admin", companyID: DefaultIDs.pending),
            StaffUser(
                email: "suspended@example.com", password: "suspended-horse", firstName: "Sue",
                lastName: "Spended", role: "admin", companyID: DefaultIDs.suspended),
            StaffUser(
                email: "totp@example.com", password: "totp-horse", firstName: "Tess", lastName: "Totp",
                role: "engineer", companyID: DefaultIDs.acme, totpSecret: defaultTOTPSecret,
                recoveryCodes: defaultRecoveryCodes),
        ],
        customers: [
            Customer(
                email: "customer@example.com", firstName: "Jane", lastName: "Customer", companyIDs: [DefaultIDs.acme]),
            Customer(
                email: "multi@example.com", firstName: "Sam", lastName: "Multi",
                companyIDs: [DefaultIDs.acme, DefaultIDs.beta]),
        ],
        supabase: Supabase(testPhones: ["+15555550100": "123456"]),
        traveling: Traveling(users: [
            // The Traveling API's test credentials (docs/systems/traveling.md, Testing Checklist).
            TravelingUser(
                id: 1, email: "test@softserve.com", password: "password123", firstName: "John", lastName: "Doe")
        ]),
        legacy: Legacy(users: [
            LegacyUser(
                email: "legacy@example.com", password: "legacy-horse", firstName: "Leo", lastName: "Legacy",
                companyID: DefaultIDs.acme, login: .twoFactor),
            LegacyUser(
                email: "legacy-magic@example.com", password: "legacy-magic-horse", firstName: "Lea",
                lastName: "Magic", companyID: DefaultIDs.acme, login: .magicLink),
            LegacyUser(
                email: "legacy-direct@example.com", password: "legacy-direct-horse", firstName: "Lou",
                lastName: "Direct", companyID: DefaultIDs.acme, login: .password),
        ]),
        lifetimes: Lifetimes()
    )
}
