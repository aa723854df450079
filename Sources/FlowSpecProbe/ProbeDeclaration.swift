import FlowSpecLanguage
import FlowSpecScenarios

/// What `flowspec probe` needs to know about one session, declared once in a `probe:` file next to it: how to
/// log in, which flows the session protects, how to log out, and the promises the backend makes, each with the
/// document that states it. The refresh flow, the header that carries the token and the namespace come from
/// the session itself.
package struct ProbeDeclaration: Sendable {
    package var session: NameRef
    package var file: String
    package var location: SourceLocation
    package var login: NameRef
    package var loginInputs: ScenarioInputs
    /// The least time between two logins (a per-account send interval such as Supabase's 60 s per phone).
    package var loginInterval: Template?
    package var protected: [NameRef]
    package var logout: NameRef?
    /// The logout request's statuses that mean it logged out; empty: any 2xx (Supabase answers 204, some servers 401).
    package var logoutAnswers: [Int] = []
    /// Statuses that mean "refused"; empty: any 4xx.
    package var refused: [Int]
    /// The store key of the refresh token (the access token's key is read from the session's headers).
    package var refreshTokenKey: String
    package var promises: [ProbeKind: Promise]

    package struct Promise: Sendable {
        package var kind: ProbeKind
        /// Where the promise is stated: the project's description of the system and the public source.
        package var source: String
        package var location: SourceLocation
        /// A run variable that must be true for the promise to be checked: the documents leave it to the backend.
        package var requires: NameRef?
        /// The options its attack declares (`ProbeAttack.options`), by key.
        var options: [String: ProbeOptionValue] = [:]
        /// The option keys written, read or not (a value out of range is one error, not two).
        var written: Set<String> = []

        func bool(_ key: String) -> Bool { if case .boolean(let b)? = options[key] { b } else { false } }
        func int(_ key: String) -> Int? { if case .integer(let n)? = options[key] { n } else { nil } }
        func duration(_ key: String) -> Template? { if case .duration(let t)? = options[key] { t } else { nil } }
        func word(_ key: String) -> String? { if case .word(let w)? = options[key] { w } else { nil } }
        func names(_ key: String) -> [NameRef] { if case .names(let n)? = options[key] { n } else { [] } }
        func statuses(_ key: String) -> [Int] { if case .statuses(let s)? = options[key] { s } else { [] } }
        func inputs(_ key: String) -> ScenarioInputs? { if case .inputs(let i)? = options[key] { i } else { nil } }
        func logins(_ key: String) -> [ProbeLogin] { if case .logins(let l)? = options[key] { l } else { [] } }
    }

    package func promise(_ kind: ProbeKind) -> Promise? { promises[kind] }

    /// Whether the logout request's answer means it logged out.
    func loggedOut(_ status: Int) -> Bool {
        logoutAnswers.isEmpty ? (200..<300).contains(status) : logoutAnswers.contains(status)
    }
}
