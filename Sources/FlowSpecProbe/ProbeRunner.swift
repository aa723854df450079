import Foundation
import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios

/// Runs the probe catalogue for declared sessions against a live backend.
public struct ProbeRunner: Sendable {
    public let environment: ProbeEnvironment
    public let declarations: [ProbeDeclaration]

    public init(environment: ProbeEnvironment, declarations: [ProbeDeclaration]) {
        self.environment = environment
        self.declarations = declarations
    }

    /// Every selected kind for every declaration, in order; `onVerdict` sees each as soon as it is known.
    public func run(kinds: [ProbeKind] = ProbeKind.allCases, onVerdict: @Sendable (ProbeVerdict) -> Void = { _ in }) async -> [ProbeVerdict] {
        var verdicts: [ProbeVerdict] = []
        for declaration in declarations {
            guard let session = environment.specs.sessions[declaration.session.name] else { continue }
            let probe = ProbeSession(declaration: declaration, session: session, environment: environment)
            for kind in kinds {
                for verdict in await run(kind, probe) {
                    onVerdict(verdict)
                    verdicts.append(verdict)
                }
            }
        }
        return verdicts
    }

    func run(_ kind: ProbeKind, _ probe: ProbeSession) async -> [ProbeVerdict] {
        let declared = probe.declaration.promise(kind)
        let context = ProbeCheck(probe: probe, kind: kind, source: declared?.source ?? Self.universalSource(kind))
        guard declared != nil || kind.isUniversal else {
            return [context.verdict("", .notApplicable, "no `\(kind.rawValue)` promise is declared in \(probe.declaration.file)")]
        }
        if let variable = declared?.requires?.name, !Self.isTrue(environment.vars[variable]) {
            return [context.verdict("", .skipped, "the documents leave this promise to the backend; set the run variable \(variable)=true where it makes it")]
        }
        switch kind {
        case .signature: return await context.signature()
        case .garbage: return await context.garbage()
        case .isolation: return await context.isolation(from: declared?.from ?? [], declarations: declarations)
        case .rotation: return await context.rotation()
        case .reuseDetection: return await context.reuseDetection(declared!)
        case .logoutRevokes: return await context.logoutRevokes()
        case .atomicRotation: return await context.atomicRotation(declared!)
        case .oneTimeCodes: return await context.oneTimeCodes()
        case .expiry: return await context.expiry(declared!)
        }
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
