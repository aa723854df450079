/// Scripted runs keep time on a virtual clock, so a run repeats exactly (the same TOTP codes, the same expiries).
package enum VirtualTime {
    /// Where the clock starts unless a scenario says `clock:` (14 November 2023, 22:13:20 UTC).
    package static let defaultStart = 1_700_000_000.0
}
