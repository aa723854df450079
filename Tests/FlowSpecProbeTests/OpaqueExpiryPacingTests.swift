import Testing

@testable import FlowSpecProbe

/// `expiry` on a token that is not a JWT counts the declared lifetime from the end of a login of its own. That login
/// first waits for its turn (`login.interval`); counted from before that wait, a healthy backend's token went back
/// before its lifetime was out and was reported BROKEN (Flask-Security's 10 s auth token behind a 30 s interval).
@Suite(.timeLimit(.minutes(2))) struct OpaqueExpiryPacingTests {
    /// Tokens that live 3 s, and logins spaced by 5 s: the expiry probe's own login waits longer than the lifetime.
    func verdicts(acceptExpired: Bool) async throws -> [ProbeVerdict] {
        var knobs = ToyAuthBackend.Knobs()
        knobs.jwt = false
        knobs.accessLifetime = 3
        knobs.acceptExpired = acceptExpired
        let file = ToyFlows.probe(
            ["expiry": #"{ source: "toy docs: access tokens live 3 s", lifetime: 3s }"#], interval: "5s")
        return try await ToyProbe.run(knobs, probeFile: file, kinds: [.expiry], allowWait: 20).verdicts
    }

    @Test func aTokenRefusedAfterItsLifetimeHoldsThoughItsLoginWaitedForItsTurn() async throws {
        let found = try await verdicts(acceptExpired: false)
        #expect(found.status(.expiry) == .held, "\(found.described)")
    }

    @Test func aTokenThatOutlivesItsLifetimeIsStillBroken() async throws {
        let found = try await verdicts(acceptExpired: true)
        #expect(found.status(.expiry) == .broken, "\(found.described)")
    }
}
