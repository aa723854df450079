import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios
import Foundation

/// Runs the probe catalogue for declared sessions against a live backend.
///
/// Logins are scarce (a backend may allow one code per minute per account), so one login serves every attack of
/// the `.shared` stage, in the catalogue's order (`ProbeCatalogue.attacks`), each leaving the next a working
/// session; the `.own` attacks follow with logins of their own.
package struct ProbeRunner: Sendable {
    package let environment: ProbeEnvironment
    package let declarations: [ProbeDeclaration]
    let pacers: [String: LoginPacer]

    package init(environment: ProbeEnvironment, declarations: [ProbeDeclaration]) {
        self.environment = environment
        self.declarations = declarations
        pacers = Dictionary(uniqueKeysWithValues: declarations.map { ($0.session.name, LoginPacer()) })
    }

    func session(_ name: String) -> ProbeSession? {
        guard let declaration = declarations.first(where: { $0.session.name == name }),
            let session = environment.specs.sessions[name],
            let pacer = pacers[name]
        else { return nil }
        return ProbeSession(declaration: declaration, session: session, environment: environment, pacer: pacer)
    }

    /// Every selected kind for every declaration; `onVerdict` sees each as soon as it is known.
    package func run(kinds: [ProbeKind] = ProbeKind.allCases, onVerdict: @Sendable (ProbeVerdict) -> Void = { _ in })
        async -> [ProbeVerdict]
    {
        var verdicts: [ProbeVerdict] = []
        for declaration in declarations {
            guard let probe = session(declaration.session.name) else { continue }
            for verdict in await run(ProbeKind.allCases.filter(kinds.contains), probe) {
                onVerdict(verdict)
                verdicts.append(verdict)
            }
        }
        return verdicts
    }

    func check(_ kind: ProbeKind, _ probe: ProbeSession) -> ProbeCheck {
        let promise = probe.declaration.promise(kind)
        return ProbeCheck(
            probe: probe, kind: kind, source: promise?.source ?? Self.universalSource(kind), promise: promise,
            runner: self)
    }

    func run(_ kinds: [ProbeKind], _ probe: ProbeSession) async -> [ProbeVerdict] {
        var verdicts: [ProbeVerdict] = []
        var runnable: [ProbeKind] = []
        for kind in kinds {
            let check = check(kind, probe)
            if let promise = probe.declaration.promise(kind) {
                if let variable = promise.requires?.name, !Self.isTrue(environment.vars[variable]) {
                    verdicts.append(
                        check.verdict(
                            "", .skipped,
                            "the documents leave this promise to the backend; set the run variable \(variable)=true where it makes it"
                        ))
                    continue
                }
            } else if !kind.isUniversal {
                verdicts.append(
                    check.verdict(
                        "", .notApplicable, "no `\(kind.rawValue)` promise is declared in \(probe.declaration.file)"))
                continue
            }
            runnable.append(kind)
        }
        let shared = runnable.filter { $0.attack.stage == .shared }
        if !shared.isEmpty { verdicts += await runShared(shared, probe) }
        for kind in runnable where kind.attack.stage == .own {
            var none: SharedLogin?
            verdicts += await kind.attack.run(check(kind, probe), &none)
        }
        return verdicts
    }

    /// The kinds that share one login, in order; the session each leaves is the next one's.
    func runShared(_ kinds: [ProbeKind], _ probe: ProbeSession) async -> [ProbeVerdict] {
        let login = await probe.login()
        guard login.succeeded else { return kinds.map { check($0, probe).notLoggedIn(login) } }
        var verdicts: [ProbeVerdict] = []
        var shared: SharedLogin? = SharedLogin(login: login, tokens: login.tokens)
        for kind in kinds {
            let c = check(kind, probe)
            if shared?.alive != true {
                // An earlier probe used the session up (a burst that tripped reuse detection): log in again.
                let again = await probe.login()
                guard again.succeeded else {
                    verdicts.append(c.notLoggedIn(again))
                    continue
                }
                shared = SharedLogin(login: again, tokens: again.tokens)
            }
            verdicts += await kind.attack.run(c, &shared)
        }
        if let shared, shared.alive { await check(ProbeKind.allCases[0], probe).cleanUp(shared.tokens) }
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
        kind.isUniversal
            ? "RFC 6750 §3.1: a token that is expired, revoked, malformed or invalid for other reasons is refused (invalid_token)"
            : ""
    }
}
