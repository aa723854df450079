extension SandboxBreak {
    /// What notices a broken promise: the live scenario suite (`scenarios/live`) or `flowspec probe`'s generated attacks.
    package enum Checker: String, Sendable, CaseIterable {
        case liveSuite = "live-suite"
        case probe
    }

    /// The checkers shown to fail against a sandbox with this break — `LiveSuiteTests` asserts the live suite fails
    /// for every break listing `.liveSuite`. `.probe` is listed only where `flowspec probe` was run against the break
    /// and answered BROKEN (exit 1); the expiry and Supabase refresh breaks need short lifetimes for that
    /// (`--accounts scenarios/live/sandbox-fast-probe.json`). The JWT forgeries, role confusion, concurrent
    /// refreshes, lifetimes, code guessing and replay into a new login, garbage refresh tokens and another user's
    /// objects are the probe's alone: no scenario sends them.
    package var caughtBy: Set<Checker> {
        switch self {
        case .acceptsUnsignedToken, .acceptsAlteredClaims, .roleConfusion, .customerRoleConfusion, .nonAtomicRotation,
            .supabaseNonAtomicRotation,
            .longAccessLifetime, .refreshGarbageCrashes, .noCodeAttemptLimit, .codeSurvivesNewLogin, .notesAnyOwner:
            [.probe]
        // `supabase-logout-keeps-access-token`: the live logout scenario sends GET /user with the logged-out token.
        case .acceptsTamperedToken, .noRefreshRotation, .noReuseDetection, .familySurvivesReuse, .logoutKeepsSession,
            .codesReusable, .acceptsExpiredToken, .travelingAcceptsExpiredToken, .supabaseRefreshNoRotation,
            .supabaseNoReuseDetection, .supabaseFamilySurvivesReuse, .supabaseLogoutKeepsSession,
            .supabaseLogoutKeepsAccessToken, .supabaseOTPNoRateLimit, .supabaseOTPReusable, .twoFactorOptional,
            .customerEnumeration:
            [.liveSuite, .probe]
        default:
            [.liveSuite]
        }
    }
}
