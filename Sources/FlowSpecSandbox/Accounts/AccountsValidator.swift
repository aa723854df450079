import Yams

/// Checks that hold across sections: references to companies exist, emails and ids are unique. Errors point
/// at the offending entry, found again in the YAML tree by its path.
struct AccountsValidator {
    let file: String
    let root: Node

    func validate(_ accounts: SandboxAccounts) throws(SandboxAccountsError) {
        let companyIDs = accounts.companies.map(\.id)
        try unique(companyIDs, section: "companies", field: "id", what: "company id")
        try unique(accounts.staff.map { $0.email.lowercased() }, section: "staff", field: "email", what: "staff email")
        try unique(accounts.staff.map(\.id), section: "staff", field: "id", what: "staff id")
        try unique(
            accounts.customers.map { $0.email.lowercased() }, section: "customers", field: "email",
            what: "customer email")
        try unique(
            accounts.traveling.users.map { $0.email.lowercased() }, section: "traveling.users", field: "email",
            what: "Traveling email")
        try unique(
            accounts.legacy.users.map { $0.email.lowercased() }, section: "legacy.users", field: "email",
            what: "legacy email")
        let known = "known companies: \(companyIDs.joined(separator: ", "))"
        for (index, user) in accounts.staff.enumerated() where !companyIDs.contains(user.companyID) {
            throw error(
                at: ["staff", .index(index), "company"], fallback: ["staff", .index(index)],
                "expected the id of a company in `companies`, got `\(user.companyID)` (\(known))")
        }
        for (index, customer) in accounts.customers.enumerated() {
            for (position, id) in customer.companyIDs.enumerated() where !companyIDs.contains(id) {
                throw error(
                    at: ["customers", .index(index), "companies", .index(position)],
                    fallback: ["customers", .index(index)],
                    "expected the id of a company in `companies`, got `\(id)` (\(known))")
            }
            if Set(customer.companyIDs).count != customer.companyIDs.count {
                throw error(
                    at: ["customers", .index(index), "companies"], fallback: ["customers", .index(index)],
                    "a company is listed twice")
            }
        }
        for (index, user) in accounts.legacy.users.enumerated() where !companyIDs.contains(user.companyID) {
            throw error(
                at: ["legacy", "users", .index(index), "company"], fallback: ["legacy", "users", .index(index)],
                "expected the id of a company in `companies`, got `\(user.companyID)` (\(known))")
        }
    }

    private func unique(_ values: [String], section: String, field: String, what: String) throws(SandboxAccountsError) {
        var seen: Set<String> = []
        for (index, value) in values.enumerated() {
            guard seen.insert(value).inserted else {
                var path: [PathComponent] = section.split(separator: ".").map { .key(String($0)) }
                path.append(.index(index))
                throw error(at: path + [.key(field)], fallback: path, "duplicate \(what) `\(value)`")
            }
        }
    }

    enum PathComponent: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case key(String)
        case index(Int)
        init(stringLiteral value: String) { self = .key(value) }
        init(integerLiteral value: Int) { self = .index(value) }
    }

    private func error(at path: [PathComponent], fallback: [PathComponent], _ problem: String) -> SandboxAccountsError {
        let node = find(path) ?? find(fallback)
        let rendered = path.reduce("") { text, component in
            switch component {
            case .key(let key): return text.isEmpty ? key : "\(text).\(key)"
            case .index(let index): return "\(text)[\(index)]"
            }
        }
        return SandboxAccountsError(
            file: file, line: node?.mark?.line, column: node?.mark?.column, key: rendered,
            problem: problem)
    }

    private func find(_ path: [PathComponent]) -> Node? {
        var node: Node? = root
        for component in path {
            switch (component, node) {
            case (.key(let key), .mapping(let mapping)?):
                node = mapping.first { $0.key.scalar?.string == key }?.value
            case (.index(let index), .sequence(let sequence)?):
                node = index < sequence.count ? sequence[index] : nil
            default:
                return nil
            }
        }
        return node
    }
}
