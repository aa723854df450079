import SandboxTesting
import Testing

@testable import FlowSpecSandbox

/// GoTrue's refresh-token rotation and reuse rules (github.com/supabase/auth, internal/tokens/service.go,
/// RefreshTokenGrant), on the manual clock.
@Suite("Supabase Auth refresh rotation and reuse (docs/systems/supabase-auth.md, POST /token)", .timeLimit(.minutes(5)))
struct SupabaseRefreshTests {
    /// Signs in, then rotates twice: t0 → t1 → t2, one second apart.
    struct Chain {
        let t0: String
        let t1: String
        let t2: String
        let access: String
    }

    func chain(_ s: SandboxFixture, clock: ManualSandboxClock) async throws -> Chain {
        let session = try await s.supabaseSignIn()
        let t0 = try #require(session["refresh_token"]?.stringValue)
        let access = try #require(session["access_token"]?.stringValue)
        clock.advance(by: 1)
        let t1 = try #require(try await refresh(s, t0)["refresh_token"]?.stringValue)
        clock.advance(by: 1)
        let t2 = try #require(try await refresh(s, t1)["refresh_token"]?.stringValue)
        #expect(Set([t0, t1, t2]).count == 3)
        return Chain(t0: t0, t1: t1, t2: t2, access: access)
    }

    func refresh(_ s: SandboxFixture, _ token: String) async throws -> Answer {
        try await s.supabase("POST", "/token?grant_type=refresh_token", ["refresh_token": .string(token)])
    }

    static let alreadyUsed: JSON = [
        "code": "refresh_token_already_used", "message": "Invalid Refresh Token: Already Used",
    ]

    @Test(
        "refresh tokens look like GoTrue's v1 tokens: 12 characters of lowercase base32",
        arguments: SandboxTestMode.allCases)
    func tokenShape(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let token = try #require(try await s.supabaseSignIn()["refresh_token"]?.stringValue)
            #expect(token.count == 12)
            #expect(token.allSatisfy { "abcdefghijklmnopqrstuvwxyz234567".contains($0) })
            let unknown = try await refresh(s, "abcdefghijkl")
            #expect(unknown.status == 400)
            #expect(
                unknown.json == [
                    "code": "refresh_token_not_found", "message": "Invalid Refresh Token: Refresh Token Not Found",
                ])
        }
    }

    @Test(
        "the parent of the active token answers 200 with the active token, again and again, and revokes nothing",
        arguments: SandboxTestMode.allCases)
    func parentOfActive(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            let c = try await chain(s, clock: clock)
            clock.advance(by: 100)
            for _ in 0..<2 {
                let parent = try await refresh(s, c.t1)
                #expect(parent.status == 200)
                #expect(parent["refresh_token"]?.stringValue == c.t2)
                #expect(parent["access_token"]?.stringValue != nil)
            }
            // Nothing was revoked: the active token still rotates.
            let active = try await refresh(s, c.t2)
            #expect(active.status == 200)
            #expect(active["refresh_token"]?.stringValue != c.t2)
        }
    }

    @Test(
        "an older token after the reuse interval (0 by default) is 400 refresh_token_already_used and revokes the family",
        arguments: SandboxTestMode.allCases)
    func olderTokenDefaultInterval(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            let c = try await chain(s, clock: clock)
            clock.advance(by: 0.001)
            let reuse = try await refresh(s, c.t0)
            #expect(reuse.status == 400)
            #expect(reuse.json == Self.alreadyUsed)
            #expect(reuse.headers["x-sb-error-code"] == "refresh_token_already_used")
            clock.advance(by: 0.001)
            let active = try await refresh(s, c.t2)
            #expect(active.status == 400)
            #expect(active.json == Self.alreadyUsed)
            // The parent no longer has an active child either.
            #expect(try await refresh(s, c.t1).json == Self.alreadyUsed)
            // GoTrue revokes the tokens, not the session: the access token still works until it expires.
            #expect(try await s.supabase("GET", "/user", bearer: c.access).status == 200)
        }
    }

    @Test(
        "with a reuse interval, an older token is swapped up to revoked_at + interval inclusive, and refused after it",
        arguments: [(10.0, true), (10.001, false)], SandboxTestMode.allCases)
    func reuseIntervalBoundary(_ boundary: (wait: Double, swapped: Bool), mode: SandboxTestMode) async throws {
        let (wait, swapped) = boundary
        let clock = ManualSandboxClock()
        try await withSandbox(mode, accounts: accounts { $0.supabase.refreshReuseInterval = 10 }, clock: clock) { s in
            #expect(s.vars["supabase_refresh_reuse_interval"] == "10")
            let c = try await chain(s, clock: clock)
            // t0 was rotated out one second before t1 was: wait from t0's revocation.
            clock.advance(by: wait - 1)
            let reuse = try await refresh(s, c.t0)
            if swapped {
                #expect(reuse.status == 200)
                let t3 = try #require(reuse["refresh_token"]?.stringValue)
                #expect(![c.t0, c.t1, c.t2].contains(t3))
                // A swap, not a revocation: the previously active token still works.
                #expect(try await refresh(s, c.t2).status == 200)
            } else {
                #expect(reuse.status == 400)
                #expect(reuse.json == Self.alreadyUsed)
                // t2 was revoked with the family just now, so it too is refused only once the interval has passed
                // again (GoTrue's RevokeTokenFamily sets updated_at = now()).
                clock.advance(by: 10.001)
                #expect(try await refresh(s, c.t2).json == Self.alreadyUsed)
            }
        }
    }

    @Test("the default sandbox's vars name the reuse interval, and an accounts file may set it (0 allowed)")
    func reuseIntervalSetting() throws {
        #expect(SandboxAccounts.defaults.supabase.refreshReuseInterval == 0)
        #expect(
            SandboxAccounts.defaults.liveVars(baseURL: "http://x", legacyURL: "http://y")[
                "supabase_refresh_reuse_interval"] == "0")
        let accounts = try SandboxAccounts.parse("supabase:\n  refresh_reuse_interval: 10s\n", file: "accounts.yaml")
        #expect(accounts.supabase.refreshReuseInterval == 10)
        let zero = try SandboxAccounts.parse("supabase:\n  refresh_reuse_interval: 0\n", file: "accounts.yaml")
        #expect(zero.supabase.refreshReuseInterval == 0)
        #expect(throws: SandboxAccountsError.self) {
            try SandboxAccounts.parse("supabase:\n  refresh_reuse_interval: -1\n", file: "accounts.yaml")
        }
    }

    @Test("logout deletes the session: its refresh tokens become unknown", arguments: SandboxTestMode.allCases)
    func logoutForgets(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        try await withSandbox(mode, clock: clock) { s in
            let c = try await chain(s, clock: clock)
            #expect(try await s.supabase("POST", "/logout", bearer: c.access).status == 204)
            for token in [c.t0, c.t1, c.t2] {
                #expect(try await refresh(s, token)["code"] == "refresh_token_not_found")
            }
        }
    }
}
