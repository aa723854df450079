import SandboxTesting
import Testing

@testable import FlowSpecSandbox

/// App-based 2FA for Repair Minder staff: "The code can also be a TOTP code (6 digits) or recovery code
/// (8 alphanumeric chars) if the user has app-based 2FA enabled" (Repair Minder API, Staff Login Flow, Step 3).
@Suite("Repair Minder staff app-based 2FA: TOTP and recovery codes", .timeLimit(.minutes(5)))
struct AppTwoFactorTests {
    static let email = "totp@example.com"
    static let password = "totp-horse"
    static let start = ManualSandboxClock.defaultStart // a whole 30 s step: 1767225600 / 30 = 58907520

    /// Codes of the default secret, computed outside Swift (Python's hmac) so the sandbox is not checked against
    /// itself: step offset from `start` → code.
    static let codes: [Int: String] = [-2: "686466", -1: "620899", 0: "385907", 1: "894862", 2: "314105"]

    @Test(
        "the sandbox's TOTP matches RFC 6238 Appendix B (SHA-1; a 6-digit code is the 8-digit vector's last 6 digits)",
        arguments: [
            (59.0, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ])
    func rfcVectors(time: Double, eightDigits: String) throws {
        let key = try #require(SandboxTOTP.key(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")) // "12345678901234567890"
        #expect(key == Array("12345678901234567890".utf8))
        #expect(SandboxTOTP.code(key: key, step: SandboxTOTP.step(at: time)) == String(eightDigits.suffix(6)))
    }

    @Test("the default account's secret gives the codes computed outside Swift")
    func defaultSecret() throws {
        let key = try #require(SandboxTOTP.key(base32: SandboxAccounts.defaultTOTPSecret))
        for (offset, code) in Self.codes {
            #expect(SandboxTOTP.code(key: key, step: SandboxTOTP.step(at: Self.start) + Int64(offset)) == code)
        }
        #expect(SandboxTOTP.key(base32: "ft67 ydx6 z7ny v676 n6b4 afib r2dn had4") == key)
        #expect(SandboxTOTP.key(base32: "NOT-BASE32") == nil)
        #expect(SandboxTOTP.key(base32: "") == nil)
    }

    @Test("a TOTP code signs in without asking for an emailed code first", arguments: SandboxTestMode.allCases)
    func totpSignsIn(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, clock: ManualSandboxClock()) { s in
            let userID = try await s.totpLogin()
            let verify = try await s.post(
                "/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(Self.codes[0]!)])
            #expect(verify.status == 200)
            #expect(verify["token"]?.stringValue != nil)
            #expect(verify["user"]?["email"] == .string(Self.email))
            let outbox = try await s.get("/__sandbox/outbox?to=totp%40example.com")
            #expect(outbox.json == [], "nothing should have been emailed")
        }
    }

    /// At `start + at`, the code of step offset `step` (relative to `start`'s step) is accepted or not. The
    /// window is the current step and one either side, so each edge is tested on both of its sides.
    @Test(
        "the window is the current step ±1, tested on both sides of each edge",
        arguments: [
            (at: 0.0, step: -2, accepted: false), (at: 0, step: -1, accepted: true), (at: 0, step: 0, accepted: true),
            (at: 0, step: 1, accepted: true), (at: 0, step: 2, accepted: false),
            // A code stays good until the end of the step after its own, and not a moment later.
            (at: 29.999, step: -1, accepted: true), (at: 30, step: -1, accepted: false),
            (at: 59.999, step: 0, accepted: true), (at: 60, step: 0, accepted: false),
            // A code is good from the start of the step before its own, not a moment earlier.
            (at: -0.001, step: 1, accepted: false), (at: -30, step: 0, accepted: true),
            (at: -30.001, step: 0, accepted: false),
        ], SandboxTestMode.allCases)
    func window(_ edge: (at: Double, step: Int, accepted: Bool), mode: SandboxTestMode) async throws {
        let (at, step, accepted) = edge
        let clock = ManualSandboxClock(start: Self.start + at)
        try await withSandbox(mode, clock: clock) { s in
            let userID = try await s.totpLogin()
            let verify = try await s.post(
                "/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(Self.codes[step]!)])
            #expect(verify.status == (accepted ? 200 : 401), "code of step \(step) at start\(at >= 0 ? "+" : "")\(at)")
            if !accepted { #expect(verify.error == "Invalid verification code") }
        }
    }

    @Test(
        "a TOTP code that signed in is refused again, and so is an older one; the next step's code works",
        arguments: SandboxTestMode.allCases)
    func noReplay(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            func verify(_ code: String) async throws -> Int {
                let userID = try await s.totpLogin()
                return try await s.post("/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(code)])
                    .status
            }
            let first = try await verify(Self.codes[0]!)
            let replayed = try await verify(Self.codes[0]!)
            let older = try await verify(Self.codes[-1]!)
            #expect(first == 200)
            #expect(replayed == 401, "the same code replayed within its window")
            #expect(older == 401, "an older code, still inside the window")
            clock.advance(by: 30)
            let stillUsed = try await verify(Self.codes[0]!)
            let next = try await verify(Self.codes[1]!)
            #expect(stillUsed == 401, "still within the window, still used")
            #expect(next == 200)
        }
    }

    @Test(
        "with `totp-replayable`, the same TOTP code signs in twice; with `totp-not-accepted`, not at all",
        arguments: SandboxTestMode.allCases)
    func totpBreaks(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, breaks: [.totpReplayable], clock: ManualSandboxClock()) { s in
            for _ in 0..<2 {
                let userID = try await s.totpLogin()
                #expect(
                    try await s.post(
                        "/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(Self.codes[0]!)]
                    ).status == 200)
            }
        }
        try await withSandbox(mode, breaks: [.totpNotAccepted], clock: ManualSandboxClock()) { s in
            let userID = try await s.totpLogin()
            #expect(
                try await s.post("/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(Self.codes[0]!)])
                    .status == 401)
        }
    }

    @Test(
        "a recovery code signs in once (any case), then is refused; the other codes still work",
        arguments: SandboxTestMode.allCases)
    func recoveryCodes(mode: SandboxTestMode) async throws {
        let codes = SandboxAccounts.defaultRecoveryCodes
        try await withSandbox(mode) { s in
            func verify(_ code: String) async throws -> Answer {
                let userID = try await s.totpLogin()
                return try await s.post("/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(code)])
            }
            #expect(try await verify(codes[0].lowercased()).status == 200)
            let again = try await verify(codes[0])
            #expect(again.status == 401)
            #expect(again.error == "Invalid verification code")
            #expect(try await verify(codes[1]).status == 200)
            #expect(try await verify("ZZZZ9999").status == 401, "not one of the account's codes")
        }
    }

    @Test(
        "recovery codes belong to their account: another staff member cannot use them",
        arguments: SandboxTestMode.allCases)
    func recoveryCodesAreTheAccountsOwn(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let login = try await s.post(
                "/api/auth/login", ["email": "staff@example.com", "password": "correct-horse"])
            let userID = try #require(login["userId"]?.stringValue)
            let verify = try await s.post(
                "/api/auth/2fa/verify",
                ["userId": .string(userID), "code": .string(SandboxAccounts.defaultRecoveryCodes[0])])
            #expect(verify.status == 401)
        }
    }

    @Test(
        "with `recovery-code-reusable`, a recovery code signs in twice; with `recovery-code-not-accepted`, not at all",
        arguments: SandboxTestMode.allCases)
    func recoveryBreaks(mode: SandboxTestMode) async throws {
        let code = SandboxAccounts.defaultRecoveryCodes[0]
        try await withSandbox(mode, breaks: [.recoveryCodeReusable]) { s in
            for _ in 0..<2 {
                let userID = try await s.totpLogin()
                #expect(
                    try await s.post("/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(code)]).status
                        == 200)
            }
        }
        try await withSandbox(mode, breaks: [.recoveryCodeNotAccepted]) { s in
            let userID = try await s.totpLogin()
            #expect(
                try await s.post("/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(code)]).status
                    == 401)
        }
    }

    @Test(
        "an account with app-based 2FA can still ask for an emailed code, and a TOTP attempt leaves that code alone",
        arguments: SandboxTestMode.allCases)
    func emailedCodeStillWorks(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, clock: ManualSandboxClock()) { s in
            let userID = try await s.totpLogin()
            #expect(
                try await s.post("/api/auth/2fa/request", ["userId": .string(userID), "email": .string(Self.email)])
                    .status == 200)
            let emailed = try await s.latestCode(to: Self.email)
            let wrong = emailed == "000000" ? "000001" : "000000"
            #expect(
                try await s.post("/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(wrong)]).status
                    == 401)
            #expect(
                try await s.post("/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(emailed)]).status
                    == 200)
        }
    }

    @Test("app codes still need the password first", arguments: SandboxTestMode.allCases)
    func passwordFirst(mode: SandboxTestMode) async throws {
        try await withSandbox(mode, clock: ManualSandboxClock()) { s in
            let userID = SandboxAccounts.defaults.staff.first { $0.email == Self.email }!.id
            let verify = try await s.post(
                "/api/auth/2fa/verify", ["userId": .string(userID), "code": .string(Self.codes[0]!)])
            #expect(verify.status == 401)
            #expect(verify.error == RepairMinderMessages.twoFactorWindowClosed)
        }
    }

    @Test("an accounts file gives a staff member totp_secret and recovery_codes")
    func accountsFile() throws {
        let accounts = try SandboxAccounts.parse(
            """
            staff:
              - { email: app@x.test, password: pw, totp_secret: "jbsw y3dp ehpk 3pxp", recovery_codes: [ab12CD34, 99999999] }
            """, file: "a.yaml")
        #expect(accounts.staff[0].totpSecret == "jbsw y3dp ehpk 3pxp")
        #expect(accounts.staff[0].recoveryCodes == ["ab12CD34", "99999999"])
        #expect(SandboxTOTP.key(base32: accounts.staff[0].totpSecret!) == SandboxTOTP.key(base32: "JBSWY3DPEHPK3PXP"))
    }

    @Test(
        "bad app-based 2FA settings are errors with their position",
        arguments: [
            (
                "{ email: a@x.test, password: pw, totp_secret: NOT-BASE32-AT-ALL }",
                "a.yaml:2:51: `staff[0].totp_secret`: expected a base32 authenticator secret"
            ),
            ("{ email: a@x.test, password: pw, totp_secret: JBSWY3DP }", "at least 16 of them"),
            (
                "{ email: a@x.test, password: pw, totp_secret: JBSWY3DPEHPK3PXP, recovery_codes: [ABCD1234, SHORT] }",
                "`staff[0].recovery_codes[1]`: expected a recovery code of exactly 8 letters and digits, got `SHORT`"
            ),
            (
                "{ email: a@x.test, password: pw, totp_secret: JBSWY3DPEHPK3PXP, recovery_codes: [ABCD1234, abcd1234] }",
                "this recovery code is listed twice"
            ),
            (
                "{ email: a@x.test, password: pw, recovery_codes: [ABCD1234] }",
                "recovery codes come with app-based 2FA: give this account a `totp_secret` too"
            ),
        ])
    func accountsFileErrors(entry: String, message: String) {
        do {
            _ = try SandboxAccounts.parse("staff:\n  - \(entry)\n", file: "a.yaml")
            Issue.record("expected an error for \(entry)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test("the live variables name the app-based 2FA account, its secret and one recovery code")
    func liveVars() {
        let vars = SandboxAccounts.defaults.liveVars(baseURL: "http://x", legacyURL: "http://y")
        #expect(vars["totp_staff_email"] == Self.email)
        #expect(vars["totp_staff_password"] == Self.password)
        #expect(vars["totp_secret"] == SandboxAccounts.defaultTOTPSecret)
        #expect(vars["recovery_code"] == SandboxAccounts.defaultRecoveryCodes[0])
        #expect(vars["staff_email"] == "staff@example.com", "the email-2FA account stays the plain staff account")
        let without = accounts { $0.staff.removeAll { $0.totpSecret != nil } }.liveVars(
            baseURL: "http://x", legacyURL: "http://y")
        for name in ["totp_staff_email", "totp_staff_password", "totp_secret", "recovery_code"] {
            #expect(without[name] == nil)
        }
    }
}

extension SandboxFixture {
    /// The password step for the default app-based 2FA account; its user id.
    func totpLogin() async throws -> String {
        let login = try await post(
            "/api/auth/login",
            ["email": .string(AppTwoFactorTests.email), "password": .string(AppTwoFactorTests.password)])
        try #require(login.status == 200, "login answered \(login.status) \(login.text)")
        return try #require(login["userId"]?.stringValue)
    }
}
