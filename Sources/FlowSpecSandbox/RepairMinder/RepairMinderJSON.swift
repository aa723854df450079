/// The JSON shapes of the Repair Minder API (docs/systems/repairminder.md). Login's `user` is camelCase while verify's and /me's `user` is snake_case:
/// that is what the API description shows, and clients decode them differently, so the sandbox keeps both.
enum RepairMinderJSON {
    /// Fixed creation time: the accounts have no history, and stable values keep responses comparable.
    static let createdAt = "2024-01-01T00:00:00.000Z"

    /// `user` in the login answer (step 1).
    static func loginUser(_ user: SandboxAccounts.StaffUser) -> JSON {
        [
            "id": .string(user.id), "email": .string(user.email), "firstName": .optional(user.firstName),
            "lastName": .optional(user.lastName), "companyId": .string(user.companyID),
        ]
    }

    /// `user` in the 2FA/magic-link verify answers and /me (Repair Minder API, docs/systems/repairminder.md, User Model (Staff)).
    static func user(
        _ user: SandboxAccounts.StaffUser, company: SandboxAccounts.Company, isActive: Bool,
        lastLogin: Double?
    ) -> JSON {
        [
            "id": .string(user.id), "email": .string(user.email), "first_name": .optional(user.firstName),
            "last_name": .optional(user.lastName), "company_id": .string(user.companyID), "role": .string(user.role),
            "phi_access_level": .string(user.phiAccessLevel), "data_classification": .string(user.dataClassification),
            "is_active": .int(isActive ? 1 : 0), "magic_link_enabled": .int(user.magicLinkEnabled ? 1 : 0),
            "company_status": .string(company.status.rawValue),
            "last_login": lastLogin.map { .string(Outbox.timestamp($0)) } ?? .null,
            "created_at": .string(createdAt), "updated_at": .string(createdAt),
        ]
    }

    /// `company` in verify and /me (Repair Minder API, docs/systems/repairminder.md, Company Model).
    static func company(_ company: SandboxAccounts.Company) -> JSON {
        [
            "id": .string(company.id), "name": .string(company.name), "status": .string(company.status.rawValue),
            "currency_code": .string(company.currencyCode), "vat_number": .optional(company.vatNumber),
            "logo_url": .optional(company.logoURL), "vat_rate_repair": .string(company.vatRateRepair),
            "vat_rate_device_sale": .string(company.vatRateDeviceSale),
            "vat_rate_accessory": .string(company.vatRateAccessory),
            "vat_rate_device_purchase": .string(company.vatRateDevicePurchase),
        ]
    }

    /// `client` in the customer verify answer (camelCase, as the documented response example).
    static func client(_ customer: SandboxAccounts.Customer, companyID: String) -> JSON {
        [
            "id": .string(customer.clientID(in: companyID)), "firstName": .optional(customer.firstName),
            "lastName": .optional(customer.lastName), "email": .string(customer.email),
            "name": .optional(customer.fullName),
        ]
    }

    /// `company` in the customer answers and in `companies` of the selection answer.
    static func customerCompany(_ company: SandboxAccounts.Company) -> JSON {
        ["id": .string(company.id), "name": .string(company.name), "logoUrl": .optional(company.logoURL)]
    }
}
