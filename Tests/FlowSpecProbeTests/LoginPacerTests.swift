import Testing

@testable import FlowSpecProbe
@testable import FlowSpecRuntime

/// Logins of one account are spaced by the declared interval plus a second: the interval runs from the previous
/// send, which came some way into the previous login (the sandbox's Supabase once answered "after 0 seconds").
@Suite struct LoginPacerTests {
    @Test func theNextLoginWaitsTheIntervalAndASecondMore() async {
        let clock = VirtualClock(start: 1_000)
        let pacer = LoginPacer()
        #expect(await pacer.waitForTurn(interval: 60, clock: clock, allowWait: 120, onWait: { _ in }) == nil)
        clock.sleep(seconds: 10)
        #expect(await pacer.waitForTurn(interval: 60, clock: clock, allowWait: 120, onWait: { _ in }) == nil)
        #expect(clock.now() == 1_061, "60 s after the first login began, and a second more")
    }

    /// The margin never turns a wait the run allows into one it does not: at the allowance, it waits the allowance.
    @Test func theMarginStaysWithinTheAllowance() async {
        let clock = VirtualClock(start: 1_000)
        let pacer = LoginPacer()
        _ = await pacer.waitForTurn(interval: 60, clock: clock, allowWait: 60, onWait: { _ in })
        #expect(await pacer.waitForTurn(interval: 60, clock: clock, allowWait: 60, onWait: { _ in }) == nil)
        #expect(clock.now() == 1_060)
        let refused = await pacer.waitForTurn(interval: 60, clock: clock, allowWait: 30, onWait: { _ in })
        #expect(refused?.contains("the login interval") == true, "\(refused ?? "")")
    }
}
