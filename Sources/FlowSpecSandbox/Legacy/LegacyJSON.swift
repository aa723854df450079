/// The legacy Repair Minder API's shapes (docs/systems/repairminder-legacy.md): every answer is `{success, data, error}`, and its models are camelCase
/// (`User` with username/verified/twoFactorEnabled, `Company` with domain/isActive/depositsEnabled).
enum LegacyJSON {
    static func success(_ data: JSON) -> Reply {
        .ok(["success": true, "data": data, "error": nil])
    }

    static func failure(_ status: Int, _ message: String) -> Reply {
        .json(status, ["success": false, "data": nil, "error": .string(message)])
    }

    static func user(_ user: SandboxAccounts.LegacyUser, company: SandboxAccounts.Company?, lastLogin: Double?) -> JSON
    {
        [
            "id": .string(user.id), "email": .string(user.email), "username": .string(user.username),
            "firstName": .optional(user.firstName), "lastName": .optional(user.lastName),
            "companyId": .string(user.companyID), "companyName": .optional(company?.name), "role": .string(user.role),
            "isActive": true, "verified": true, "twoFactorEnabled": .bool(user.login == .twoFactor),
            "magicLinkEnabled": .bool(user.login == .magicLink),
            "lastLogin": lastLogin.map { .string(Outbox.timestamp($0)) } ?? .null,
            "createdAt": .string(RepairMinderJSON.createdAt), "updatedAt": .string(RepairMinderJSON.createdAt),
        ]
    }

    static func company(_ company: SandboxAccounts.Company) -> JSON {
        [
            "id": .string(company.id), "name": .string(company.name), "domain": nil,
            "isActive": .bool(company.status == .active), "currencyCode": .string(company.currencyCode),
            "depositsEnabled": false,
            "createdAt": .string(RepairMinderJSON.createdAt), "updatedAt": .string(RepairMinderJSON.createdAt),
        ]
    }
}
