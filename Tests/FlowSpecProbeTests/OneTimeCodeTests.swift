import Testing

@testable import FlowSpecProbe

/// The code replay, where the login context is consumed: the very request that redeemed a code carries a pre-auth
/// id the login used up, so replaying it is answered 410 whatever the code — and says nothing about the code. The
/// verdict comes from a new login offered the used code first.
@Suite(.timeLimit(.minutes(5))) struct OneTimeCodeTests {
    /// The pre-auth login as the session's login, with `one_time_codes` declared.
    static let preAuthFile = ToyFlows.probe(
        ["one_time_codes": #""toy docs: a code works once""#], login: "toy.preauth-login")

    /// The case the new-login check was made for: a backend that answers the replay 410 (its pre-auth id is gone)
    /// but takes the used code in a new login is BROKEN — the replay's refusal made it look held before.
    @Test func aCodeAcceptedInANewLoginIsBrokenThoughItsReplayWasRefused() async throws {
        var knobs = ToyAuthBackend.Knobs()
        knobs.codesSingleUse = false
        let (found, backend) = try await ToyProbe.run(knobs, probeFile: Self.preAuthFile, kinds: [.oneTimeCodes])
        let codes = found.of(.oneTimeCodes)
        #expect(codes.map(\.check) == ["in a new login"] && codes.first?.status == .broken, "\(found.described)")
        #expect(
            codes.first?.detail
                == "the code used by the previous login was accepted again (200) in a new login, which succeeded with it"
        )
        // The evidence: the request that redeemed the code, and the new login's request with that same code.
        let evidence = codes.first?.evidence ?? []
        #expect(
            evidence.map(\.url) == ["/login/finish", "/login/finish"] && evidence.allSatisfy { $0.status == 200 },
            "\(evidence)")
        #expect(
            await backend.answered.filter { $0.path == "/login/finish" }.map(\.status) == [200, 410, 200],
            "login, its replay, the new login")
    }

    /// On a faithful backend the same replay is refused by the same 410: the held verdict rests on the new login, where
    /// the used code was refused and a fresh code in that login was accepted.
    @Test func theHeldVerdictComesFromTheNewLoginNotFromTheReplay() async throws {
        let (found, backend) = try await ToyProbe.run(probeFile: Self.preAuthFile, kinds: [.oneTimeCodes])
        let codes = found.of(.oneTimeCodes)
        #expect(codes.map(\.check) == ["in a new login"] && codes.first?.status == .held, "\(found.described)")
        #expect(codes.first?.detail.contains("the control: a fresh code in that same login was accepted") == true)
        #expect(
            await backend.answered.filter { $0.path == "/login/finish" }.map(\.status) == [200, 410, 401, 200],
            "login, its replay, the used code in the new login, a fresh code in it")
    }

    /// `login_code_reusable`: the probe file's own login uses a code reusable by design (a test phone), so only the
    /// other code logins are checked — and its code is never replayed.
    @Test func aLoginWhoseCodeIsReusableByDesignLeavesItsOtherLogins() async throws {
        let file = ToyFlows.probe([
            "one_time_codes":
                #"{ source: "toy docs", login_code_reusable: true, logins: [ { flow: toy.preauth-login, inputs: \#(ToyFlows.inputs(ToyAuthBackend.alice)) } ] }"#
        ])
        let (found, backend) = try await ToyProbe.run(probeFile: file, kinds: [.oneTimeCodes])
        #expect(
            found.of(.oneTimeCodes).map(\.check) == ["in a new login (toy.preauth-login)"]
                && found.status(.oneTimeCodes) == .held, "\(found.described)")
        #expect(await backend.answered.filter { $0.path == "/verify" }.count == 1, "only the shared login's own code")
    }

    /// A code login whose inputs read a run variable not given is skipped, naming it; the others are checked.
    @Test func aLoginWithoutItsVariablesIsSkippedNamingThem() async throws {
        let file = ToyFlows.probe([
            "one_time_codes":
                #"{ source: "toy docs", logins: [ { flow: toy.preauth-login, inputs: { email: "${vars.sms_email}", password: "x", code: "1" } } ] }"#
        ])
        let found = try await ToyProbe.run(probeFile: file, kinds: [.oneTimeCodes]).verdicts
        #expect(found.status(.oneTimeCodes, "in a new login") == .held, "\(found.described)")
        let skipped = found.of(.oneTimeCodes, "toy.preauth-login").first
        #expect(skipped?.status == .skipped && skipped?.detail.contains("sms_email") == true, "\(found.described)")
    }

    /// The new logins are spaced by the login interval; a short-lived access token of the shared login expires
    /// meanwhile. The attacks after it get a session that works, not a control failing on an expired token.
    @Test func theAttacksAfterTheNewLoginsGetASessionThatWorks() async throws {
        var knobs = ToyAuthBackend.Knobs()
        knobs.accessLifetime = 2
        let file = ToyFlows.probe(["one_time_codes": #""toy docs""#], interval: "2")
        let (found, backend) = try await ToyProbe.run(
            knobs, probeFile: file, kinds: [.oneTimeCodes, .signature], allowWait: 10)
        #expect(found.count == 4 && found.allSatisfy { $0.status == .held }, "\(found.described)")
        // Refreshed, not logged in again: the login, the new login, the control login.
        let answered = await backend.answered.map(\.path)
        #expect(
            answered.filter { $0 == "/refresh" }.count == 1 && answered.filter { $0 == "/login" }.count == 3,
            "\(answered)")
    }

    /// Each login is sent a new code: the one the probe offers again is never the next login's right one.
    @Test func eachLoginIsSentANewCode() async throws {
        let (_, backend) = try await ToyProbe.run(
            probeFile: ToyFlows.probe(["one_time_codes": #""toy docs""#]), kinds: [.oneTimeCodes])
        // The login, the new login offered the used code, and the control login after it.
        #expect(await backend.codesSent == 3)
        #expect(
            await backend.answered.filter { $0.path == "/verify" }.map(\.status) == [200, 401, 401, 200],
            "login, replay, used code, control")
    }
}
