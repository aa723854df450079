import FlowSpecLanguage

/// One attack of `flowspec probe`'s catalogue, whole: its name and the keys of its promise, what it sends, its
/// control, how it judges, and the reproduction of what it found. Registered once in `ProbeCatalogue.attacks`, from
/// which the probe file decoder, the JSON Schema, `--probe`, the reports and the docs' catalogue table come.
///
/// Every verdict rests on a control: a refusal proves the promise only when the same request with the legitimate
/// credential, in the same context, succeeds. When the control fails the verdict is an ERROR naming why — never held.
protocol ProbeAttack: Sendable {
    /// Its name in probe files, `--probe` and reports (`rotation`).
    static var name: String { get }
    /// What it checks, in a few words (`refresh rotation`).
    static var title: String { get }
    /// Every bearer-token API must keep it (RFC 6750 §3.1): it runs without a declared promise.
    static var universal: Bool { get }
    /// The keys of its promise beyond `source` and `requires`.
    static var options: [ProbeOption] { get }
    /// What the probe file must also give for it.
    static var needs: Set<ProbeNeed> { get }
    /// Whether it shares the run's one login with the other attacks of that stage, or logs in itself.
    static var stage: ProbeStage { get }
    /// The catalogue's row in docs/probe.md: what it sends, its control, when it holds.
    static var sends: String { get }
    static var control: String { get }
    static var heldWhen: String { get }

    /// Checks a declared promise beyond the shapes of its options (which options go together), at load time.
    static func check(_ promise: ProbeDeclaration.Promise, _ diagnostics: inout Diagnostics)

    /// Runs the attack for one session. At the `.shared` stage `shared` holds the login the attacks before left, and
    /// the attack leaves it what the next one gets (`alive = false`: it used the session up); at `.own` it is nil.
    static func run(_ check: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict]
}

extension ProbeAttack {
    static var universal: Bool { false }
    static var options: [ProbeOption] { [] }
    static var needs: Set<ProbeNeed> { [] }
    static var stage: ProbeStage { .shared }
    static func check(_ promise: ProbeDeclaration.Promise, _ diagnostics: inout Diagnostics) {}
}

/// When an attack runs in a session's probe run.
enum ProbeStage: Sendable {
    /// In the catalogue's order on one login (logins are scarce: a backend may allow one code a minute).
    case shared
    /// After those, with logins of its own (it logs out, locks a login, or needs a second account).
    case own
}

/// What an attack needs besides its promise.
enum ProbeNeed: Sendable, Hashable {
    case logoutFlow
    case refreshFlow
}

/// The login the `.shared` attacks take turns on.
struct SharedLogin: Sendable {
    /// The login as it happened: its exchanges and the codes it was given.
    let login: ProbeSession.Login
    var tokens: [String: JSONValue]
    var alive = true
}
