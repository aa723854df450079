import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecProbe
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// Runs `flowspec probe` against a fresh toy backend: the toy's flows, the staff session's probe file, and any
/// further files (the customer session's probe file).
enum ToyProbe {
    static func specs(probeFile: String, more: [String: String] = [:]) throws -> SpecSet {
        let specs = SpecSet(
            sources: ToyFlows.files.merging(["flows/toy/session-probe.yaml": probeFile], uniquingKeysWith: { $1 })
                .merging(more, uniquingKeysWith: { $1 }))
        if let error = specs.diagnostics.errors.first { throw error }
        return specs
    }

    static func declarations(_ specs: SpecSet) throws -> [ProbeDeclaration] {
        var diagnostics = Diagnostics()
        let declarations = ProbeLoader.declarations(
            in: Suite(specs: specs, scenarios: [], diagnostics: specs.diagnostics, fileCount: 0), &diagnostics)
        if let error = diagnostics.errors.first { throw error }
        return declarations
    }

    static func run(
        _ knobs: ToyAuthBackend.Knobs = .init(), probeFile: String = ToyFlows.probe(), more: [String: String] = [:],
        kinds: [ProbeKind] = ProbeKind.allCases, allowWait: Double = 60,
        vars: [String: JSONValue] = [:]
    ) async throws -> (verdicts: [ProbeVerdict], backend: ToyAuthBackend) {
        let specs = try specs(probeFile: probeFile, more: more)
        let declarations = try declarations(specs)
        let backend = ToyAuthBackend(knobs)
        let environment = ProbeEnvironment(
            specs: specs, adapter: backend,
            vars: vars.merging([
                "toy_inbox": .string(backend.inbox.path), "toy_deactivated": .string(backend.deactivated.path),
            ]) { $1 },
            redactor: Redactor(), clock: SystemClock(), allowWait: allowWait, commandTimeout: 10)
        return (await ProbeRunner(environment: environment, declarations: declarations).run(kinds: kinds), backend)
    }
}

extension [ProbeVerdict] {
    /// The staff session's verdicts of `kind` (and `check`, when given).
    func of(_ kind: ProbeKind, _ check: String? = nil) -> [ProbeVerdict] {
        filter { $0.session == "toy.session" && $0.kind == kind && (check == nil || $0.check == check) }
    }

    /// The status of the staff session's first verdict of `kind` (and `check`, when not empty).
    func status(_ kind: ProbeKind, _ check: String = "") -> ProbeVerdict.Status? {
        of(kind, check.isEmpty ? nil : check).first?.status
    }

    /// One line per verdict, for a failed expectation's message.
    var described: String {
        map { "\($0.session) \($0.kind) \($0.check): \($0.status.rawValue): \($0.detail)" }.joined(separator: "\n")
    }
}
