/// Refresh tokens grouped in families: one family per sign-in, one current token per family. Rotation
/// retires the current token; presenting a retired one is reuse (OAuth security BCP; Repair Minder API, docs/systems/repairminder.md, Token Refresh).
/// The family id doubles as the session id that access tokens carry, so revoking the family ends the session.
struct RefreshFamilies: Sendable {
    struct Family: Sendable {
        let id: String
        let subject: String
        var current: String
        var expiresAt: Double
        var isMobile: Bool
        var revoked: Bool
    }

    enum Rotation: Sendable {
        case rotated(Family)
        /// Never issued, or forgotten (logout deletes).
        case unknown
        /// A retired token of a live family; the family was revoked unless the caller asked to keep it.
        case reused(Family)
        /// A token of a family that was already revoked.
        case revoked(Family)
        case expired(Family)
    }

    /// How rotation behaves; the defaults are the promises, the alternatives exist for `SandboxBreak`s.
    struct Policy: Sendable {
        var rotate = true
        var detectReuse = true
        var revokeFamilyOnReuse = true
    }

    private var families: [String: Family] = [:]
    /// Every token ever issued and not forgotten → its family.
    private var index: [String: String] = [:]

    mutating func start(subject: String, lifetime: Double, isMobile: Bool, now: Double) -> Family {
        let family = Family(
            id: Secrets.uuid(), subject: subject, current: Secrets.opaqueToken(),
            expiresAt: now + lifetime, isMobile: isMobile, revoked: false)
        families[family.id] = family
        index[family.current] = family.id
        return family
    }

    /// Exchanges `token` for a new one. `lifetime` slides the family's expiry (Repair Minder API, docs/systems/repairminder.md, Token Refresh: "each refresh
    /// extends the refresh token lifetime").
    mutating func rotate(_ token: String, lifetime: Double, isMobile: Bool, now: Double, policy: Policy = Policy())
        -> Rotation
    {
        guard let familyID = index[token], var family = families[familyID] else { return .unknown }
        if family.revoked { return .revoked(family) }
        if token != family.current {
            if policy.detectReuse {
                if policy.revokeFamilyOnReuse {
                    family.revoked = true
                    families[familyID] = family
                }
                return .reused(family)
            }
            // Break `no-reuse-detection`: the retired token is honoured as if it were current.
        }
        if now >= family.expiresAt { return .expired(family) }
        if policy.rotate {
            let next = Secrets.opaqueToken()
            index[next] = familyID
            family.current = next
        }
        family.expiresAt = now + lifetime
        family.isMobile = isMobile
        families[familyID] = family
        return .rotated(family)
    }

    /// Whether `token` is the current token of a live family: the read-only check of `non-atomic-rotation`.
    func isCurrent(_ token: String) -> Bool {
        guard let familyID = index[token], let family = families[familyID] else { return false }
        return !family.revoked && family.current == token
    }

    func family(id: String) -> Family? {
        families[id]
    }

    func isLive(_ familyID: String) -> Bool {
        guard let family = families[familyID] else { return false }
        return !family.revoked
    }

    mutating func revoke(_ familyID: String) {
        families[familyID]?.revoked = true
    }

    /// Revokes and forgets the family: its tokens become unknown (GoTrue deletes sessions on logout).
    mutating func forget(_ familyID: String) {
        families[familyID] = nil
        index = index.filter { $0.value != familyID }
    }

    func familyIDs(subject: String) -> [String] {
        families.values.filter { $0.subject == subject }.map(\.id)
    }
}
