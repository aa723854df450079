import FlowSpecLanguage
import FlowSpecScenarios

/// What `flowspec probe` needs to know about one session, declared once in a `probe:` file next to it: how to
/// log in, which flows the session protects, how to log out, and the promises the backend makes, each with the
/// document that states it. The refresh flow, the header that carries the token and the namespace come from
/// the session itself.
public struct ProbeDeclaration: Sendable {
    public var session: NameRef
    public var file: String
    public var location: SourceLocation
    public var login: NameRef
    public var loginInputs: ScenarioInputs
    /// The least time between two logins (a per-account send interval such as Supabase's 60 s per phone).
    public var loginInterval: Template?
    public var protected: [NameRef]
    public var logout: NameRef?
    /// Statuses that mean "refused"; empty: any 4xx.
    public var refused: [Int]
    /// The store key of the refresh token (the access token's key is read from the session's headers).
    public var refreshTokenKey: String
    public var promises: [ProbeKind: Promise]

    public struct Promise: Sendable {
        public var kind: ProbeKind
        /// Where the promise is stated: the project's description of the system and the public source.
        public var source: String
        public var location: SourceLocation
        /// reuse_detection: a refused reuse also revokes the newest token of the family.
        public var revokesFamily = false
        /// reuse_detection, atomic_rotation: the parent of the active token may be reused (GoTrue).
        public var parentOfActiveGrace = false
        /// reuse_detection: seconds during which any old token is still swapped (GoTrue's reuse interval).
        public var reuseInterval: Template?
        /// isolation: sessions whose tokens this session's protected flows must refuse.
        public var from: [NameRef] = []
        /// atomic_rotation: concurrent refreshes with one token.
        public var burst = 5
        /// expiry: seconds of clock skew the backend may allow past `exp`.
        public var leeway: Template?
        /// A run variable that must be true for the promise to be checked: the documents leave it to the backend.
        public var requires: NameRef?
    }

    public func promise(_ kind: ProbeKind) -> Promise? { promises[kind] }
}
