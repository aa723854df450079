import Foundation

/// Whole-second arithmetic on wall-clock times (seconds since 1970, the unit of JWT `iat`/`exp` and of every
/// lifetime in `SandboxAccounts`). The time itself comes from the request, which read it from `SandboxClock`.
enum WallClock {
    /// A JWT `exp` no later than `lifetime` after `now` (whole seconds, rounded down), so short test
    /// lifetimes expire by the time the test has waited `lifetime` seconds.
    static func expiry(now: Double, lifetime: Double) -> Int {
        Int((now + lifetime).rounded(.down))
    }

    /// Seconds as a whole number for `expiresIn`/`expires_in` fields.
    static func seconds(_ lifetime: Double) -> Int {
        Int(lifetime.rounded(.up))
    }
}

/// Mobile detection as the Repair Minder API describes it (docs/systems/repairminder.md, Mobile Detection): the User-Agent contains Mobile, Android, iPhone, iPad or iPod.
enum MobileUserAgent {
    static func matches(_ userAgent: String) -> Bool {
        ["mobile", "android", "iphone", "ipad", "ipod"].contains { userAgent.lowercased().contains($0) }
    }
}
