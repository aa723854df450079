import SandboxTesting
import Testing

@testable import FlowSpecSandbox

/// The sandbox reads the time only from `SandboxOptions.clock`: if anything read the machine's clock instead,
/// a test moving a `ManualSandboxClock` would see tokens, codes and timestamps that disagree with it.
@Suite("The sandbox clock", .timeLimit(.minutes(5)))
struct ClockTests {
    @Test(
        "token iat/exp, outbox sentAt, last_login and Supabase's expires_at all come from the configured clock",
        arguments: SandboxTestMode.allCases)
    func everyTimeComesFromTheClock(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock()
        let start = Int(ManualSandboxClock.defaultStart)
        try await withSandbox(mode, clock: clock) { s in
            let token = try await s.staffSignIn().token
            #expect(claims(of: token)["iat"] == .int(start))
            #expect(claims(of: token)["exp"] == .int(start + 900))
            guard case .array(let sent) = try await s.get("/__sandbox/outbox").json else {
                Issue.record("the outbox is not a list"); return
            }
            #expect(sent.map { $0["sentAt"] } == [.string("2026-01-01T00:00:00.000Z")])

            clock.advance(by: 90)
            let me = try await s.get("/api/auth/me", bearer: try await s.staffSignIn().token)
            #expect(me["user"]?["last_login"] == .string("2026-01-01T00:01:30.000Z"))

            let session = try await s.supabaseSignIn()
            #expect(session["expires_at"] == .int(start + 90 + 3600))
            #expect(claims(of: try #require(session["access_token"]?.stringValue))["iat"] == .int(start + 90))
        }
    }

    @Test(
        "a JWT never outlives its lifetime: exp is rounded down when issued between whole seconds",
        arguments: SandboxTestMode.allCases)
    func expiryRoundsDown(mode: SandboxTestMode) async throws {
        let clock = ManualSandboxClock(start: ManualSandboxClock.defaultStart + 0.75)
        try await withSandbox(mode, clock: clock) { s in
            let token = try await s.staffSignIn().token
            #expect(claims(of: token)["exp"] == .int(Int(ManualSandboxClock.defaultStart) + 900))
            clock.advance(by: 899) // 2026-01-01T00:14:59.750Z: still inside the token's last second
            #expect(try await s.get("/api/auth/me", bearer: token).status == 200)
            clock.advance(by: 0.25) // 00:15:00, only 899.25 s after issue: past exp
            #expect(try await s.get("/api/auth/me", bearer: token).error == "Token expired")
        }
    }
}
