import Foundation
import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("Accounts files", .timeLimit(.minutes(5)))
struct AccountsFileTests {
    static let yaml = """
        companies:
          - { id: c-1, name: One Repairs }
          - { id: c-2, name: Two Repairs, status: suspended }
        staff:
          - email: a@one.test
            password: "012345"
            first_name: Ann
            role: engineer
            company: c-1
          - { email: b@two.test, password: pw-b, company: c-2 }
          - { email: c@one.test, password: null, company: c-1, magic_link_enabled: true }
        customers:
          - { email: cust@one.test, companies: [c-1, c-2] }
        supabase:
          anon_key: my-anon
          test_phones: { "15550001111": "654321" }
          send_interval: 90s
        lifetimes:
          code: 5m
          access_token: 0.5
        """

    func write(_ text: String, ext: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString).\(ext)")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a YAML file replaces the sections it has and keeps defaults for the others")
    func loadsYAML() throws {
        let accounts = try SandboxAccounts.load(path: try write(Self.yaml, ext: "yaml"))
        #expect(accounts.companies.map(\.id) == ["c-1", "c-2"])
        #expect(accounts.companies[1].status == .suspended)
        #expect(accounts.staff[0].password == "012345")
        #expect(accounts.staff[0].role == "engineer")
        #expect(accounts.staff[2].password == nil)
        #expect(accounts.customers[0].companyIDs == ["c-1", "c-2"])
        #expect(accounts.supabase.anonKey == "my-anon")
        #expect(accounts.supabase.testPhones == ["+15550001111": "654321"])
        #expect(accounts.supabase.sendInterval == 90)
        #expect(accounts.lifetimes.code == 300)
        #expect(accounts.lifetimes.accessToken == 0.5)
        #expect(accounts.lifetimes.refreshTokenWeb == 7 * 86400)
        #expect(accounts.traveling == SandboxAccounts.defaults.traveling)
    }

    @Test("a JSON file works too, and an empty file is the defaults")
    func loadsJSON() throws {
        let json =
            #"{"companies": [{"id": "x", "name": "X"}], "staff": [{"email": "x@x.test", "password": "pw", "company": "x"}]}"#
        let accounts = try SandboxAccounts.load(path: try write(json, ext: "json"))
        #expect(accounts.staff.map(\.email) == ["x@x.test"])
        #expect(try SandboxAccounts.load(path: try write("", ext: "yaml")) == .defaults)
    }

    @Test("live vars follow the loaded accounts", arguments: SandboxTestMode.allCases)
    func liveVarsFromFile(mode: SandboxTestMode) async throws {
        let accounts = try SandboxAccounts.load(path: try write(Self.yaml, ext: "yaml"))
        try await withSandbox(mode, accounts: accounts) { s in
            #expect(s.vars["staff_email"] == "a@one.test")
            #expect(s.vars["staff_password"] == "012345")
            #expect(s.vars["quarantined_email"] == "b@two.test")
            #expect(s.vars["nopassword_email"] == "c@one.test")
            #expect(s.vars["multi_customer_company_id"] == "c-2")
            #expect(s.vars["customer_email"] == nil)
            #expect(s.vars["phone"] == "+15550001111")
            #expect(s.vars["supabase_anon_key"] == "my-anon")
            // And the sandbox serves them.
            let login = try await s.post("/api/auth/login", ["email": "a@one.test", "password": "012345"])
            #expect(login["requiresTwoFactor"] == true)
        }
    }

    @Test(
        "bad files fail with file:line:col, the key and what was expected",
        arguments: [
            ("staff:\n  - email: a@b.test\n    pasword: x\n", "3:5", "staff[0].pasword", "unknown key"),
            ("lifetimes:\n  code: ten\n", "2:9", "lifetimes.code", "expected a duration"),
            (
                "staff:\n  - { email: a@b.test, password: x, company: nope }\n", "2:", "staff[0].company",
                "expected the id of a company"
            ),
            (
                "companies:\n  - { id: a, status: closed }\n", "2:22", "companies[0].status",
                "expected one of active, pending_approval, suspended"
            ),
            ("staff:\n  - { email: a@b.test, active: maybe }\n", "2:", "staff[0].active", "expected true or false"),
            ("customers:\n  - { email: a@b.test }\n", "2:", "customers[0]", "missing key `companies`"),
            ("nonsense: 1\n", "1:1", "nonsense", "expected one of companies, staff"),
            ("staff: [\n", "", "", "not valid YAML or JSON"),
            ("supabase:\n  test_phones: { \"0123\": \"123456\" }\n", "2:", "supabase.test_phones.0123", "E.164"),
        ])
    func badFiles(text: String, position: String, key: String, expected: String) throws {
        let path = try write(text, ext: "yaml")
        do {
            _ = try SandboxAccounts.load(path: path)
            Issue.record("loaded a bad file: \(text)")
        } catch let error as SandboxAccountsError {
            #expect(error.file == path)
            #expect(error.key == key)
            #expect(error.description.hasPrefix("\(path):\(position)"), "\(error)")
            #expect(error.description.contains(expected), "\(error)")
            if !key.isEmpty { #expect(error.description.contains("`\(key)`")) }
        }
    }

    @Test("a missing file is a clear error naming it")
    func missingFile() throws {
        #expect {
            try SandboxAccounts.load(path: "/nonexistent/accounts.yaml")
        } throws: { error in
            "\(error)".contains("/nonexistent/accounts.yaml") && "\(error)".contains("cannot read")
        }
    }
}
