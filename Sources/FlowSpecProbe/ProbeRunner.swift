import Foundation
import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios

/// Runs the probe catalogue for declared sessions against a live backend.
///
/// Logins are scarce (a backend may allow one code per minute per account), so one login serves every probe
/// that leaves its session usable, in an order where each leaves the next a working session: the code replay
/// (at once, while the code is fresh), the token probes (sent without the session's refresh, so they change
/// nothing on the server), rotation, the concurrent burst, and last reuse detection, which revokes the family.
/// Only the logout probe needs a second login.
public struct ProbeRunner: Sendable {
    public let environment: ProbeEnvironment
    public let declarations: [ProbeDeclaration]
    let pacers: [String: LoginPacer]

    public init(environment: ProbeEnvironment, declarations: [ProbeDeclaration]) {
        self.environment = environment
        self.declarations = declarations
        pacers = Dictionary(uniqueKeysWithValues: declarations.map { ($0.session.name, LoginPacer()) })
    }

    /// The order verdicts come in: the shared login's chain, then the logout probe.
    static let order: [ProbeKind] = [.oneTimeCodes, .signature, .garbage, .isolation, .expiry, .rotation, .atomicRotation, .reuseDetection, .logoutRevokes]

    func session(_ name: String) -> ProbeSession? {
        guard let declaration = declarations.first(where: { $0.session.name == name }), let session = environment.specs.sessions[name],
              let pacer = pacers[name] else { return nil }
        return ProbeSession(declaration: declaration, session: session, environment: environment, pacer: pacer)
    }

    /// Every selected kind for every declaration; `onVerdict` sees each as soon as it is known.
    public func run(kinds: [ProbeKind] = ProbeKind.allCases, onVerdict: @Sendable (ProbeVerdict) -> Void = { _ in }) async -> [ProbeVerdict] {
        var verdicts: [ProbeVerdict] = []
        for declaration in declarations {
            guard let probe = session(declaration.session.name) else { continue }
            for verdict in await run(Self.order.filter(kinds.contains), probe) {
                onVerdict(verdict)
                verdicts.append(verdict)
            }
        }
        return verdicts
    }

    func run(_ kinds: [ProbeKind], _ probe: ProbeSession) async -> [ProbeVerdict] {
        var verdicts: [ProbeVerdict] = []
        var runnable: [ProbeKind] = []
        for kind in kinds {
            let check = ProbeCheck(probe: probe, kind: kind, source: probe.declaration.promise(kind)?.source ?? Self.universalSource(kind))
            if let promise = probe.declaration.promise(kind) {
                if let variable = promise.requires?.name, !Self.isTrue(environment.vars[variable]) {
                    verdicts.append(check.verdict("", .skipped, "the documents leave this promise to the backend; set the run variable \(variable)=true where it makes it"))
                    continue
                }
            } else if !kind.isUniversal {
                verdicts.append(check.verdict("", .notApplicable, "no `\(kind.rawValue)` promise is declared in \(probe.declaration.file)"))
                continue
            }
            runnable.append(kind)
        }
        let chain = runnable.filter { $0 != .logoutRevokes }
        if !chain.isEmpty {
            verdicts += await runChain(chain, probe)
        }
        if runnable.contains(.logoutRevokes) {
            let check = ProbeCheck(probe: probe, kind: .logoutRevokes, source: probe.declaration.promise(.logoutRevokes)?.source ?? "")
            verdicts += await check.withLogin { await check.logoutRevokes($0) }
        }
        return verdicts
    }

    /// The kinds that share one login, in order; the session each leaves is the next one's.
    func runChain(_ kinds: [ProbeKind], _ probe: ProbeSession) async -> [ProbeVerdict] {
        func check(_ kind: ProbeKind) -> ProbeCheck {
            ProbeCheck(probe: probe, kind: kind, source: probe.declaration.promise(kind)?.source ?? Self.universalSource(kind))
        }
        let login = await probe.login()
        guard login.succeeded else {
            return kinds.map { check($0).notLoggedIn(login) }
        }
        var verdicts: [ProbeVerdict] = []
        var tokens = login.tokens
        var alive = true
        for kind in kinds {
            let c = check(kind)
            if !alive {
                // An earlier probe used the session up (a burst that tripped reuse detection): log in again.
                let again = await probe.login()
                guard again.succeeded else {
                    verdicts.append(c.notLoggedIn(again))
                    continue
                }
                tokens = again.tokens
                alive = true
            }
            switch kind {
            case .oneTimeCodes: verdicts += await c.oneTimeCodes(login)
            case .signature: verdicts += await c.signature(tokens)
            case .garbage: verdicts += await c.garbage(tokens)
            case .isolation: verdicts += await c.isolation(tokens, from: probe.declaration.promise(.isolation)?.from ?? [], runner: self)
            case .expiry: verdicts += await c.expiry(tokens, probe.declaration.promise(.expiry)!)
            case .rotation:
                let (found, next) = await c.rotation(tokens)
                verdicts += found
                if let next { tokens = next } else { alive = false }
            case .atomicRotation:
                let (found, next) = await c.atomicRotation(tokens, probe.declaration.promise(.atomicRotation)!)
                verdicts += found
                // Refused duplicates may have revoked the family, as reuse detection should: see if it still refreshes.
                if let next, let still = await c.stillRefreshes(next) { tokens = still } else { alive = false }
            case .reuseDetection:
                verdicts += await c.reuseDetection(tokens, probe.declaration.promise(.reuseDetection)!)
                alive = false
            case .logoutRevokes: break
            }
        }
        if alive { await check(.rotation).cleanUp(tokens) }
        return verdicts
    }

    static func isTrue(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let b): b
        case .string(let s): s.lowercased() == "true"
        default: false
        }
    }

    /// What every bearer-token API promises, whatever its own documents say.
    static func universalSource(_ kind: ProbeKind) -> String {
        kind.isUniversal ? "RFC 6750 §3.1: a token that is expired, revoked, malformed or invalid for other reasons is refused (invalid_token)" : ""
    }
}
