/// The attacks and promises `flowspec probe` checks, one per kind. Each kind's documentation (docs/probe.md) says
/// what it sends and what "held" means.
public enum ProbeKind: String, Sendable, CaseIterable, Codable {
    case rotation
    case reuseDetection = "reuse_detection"
    case logoutRevokes = "logout_revokes"
    case signature
    case isolation
    case garbage
    case expiry
    case atomicRotation = "atomic_rotation"
    case oneTimeCodes = "one_time_codes"

    /// Every backend must refuse a forged, foreign or garbage token; these run without a declared promise.
    public var isUniversal: Bool { self == .signature || self == .garbage }

    public var title: String {
        switch self {
        case .rotation: "refresh rotation"
        case .reuseDetection: "refresh-token reuse detection"
        case .logoutRevokes: "logout revokes the refresh token"
        case .signature: "forged access tokens"
        case .isolation: "role and system isolation"
        case .garbage: "garbage and absent tokens"
        case .expiry: "expired access token"
        case .atomicRotation: "atomic rotation under concurrency"
        case .oneTimeCodes: "one-time codes"
        }
    }
}
