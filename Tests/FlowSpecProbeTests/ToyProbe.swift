import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecProbe
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

/// Runs `flowspec probe` against a fresh toy backend: the toy's flows, the staff session's probe file, and any
/// further files (the customer session's probe file).
enum ToyProbe {
    static func files(probeFile: String, more: [String: String] = [:]) throws -> LoadedFiles {
        let loaded = LoadedFiles(
            sources: ToyFlows.files.merging(["flows/toy/session-probe.yaml": probeFile], uniquingKeysWith: { $1 })
                .merging(more, uniquingKeysWith: { $1 }))
        if let error = loaded.program.diagnostics.errors.first { throw error }
        return loaded
    }

    static func declarations(_ loaded: LoadedFiles) throws -> [ProbeDeclaration] {
        var diagnostics = Diagnostics()
        let suite = Suite(
            specs: loaded.program, probeDocuments: loaded.probeDocuments, scenarios: [],
            diagnostics: loaded.program.diagnostics, fileCount: 0)
        let declarations = ProbeLoader.declarations(in: suite, &diagnostics)
        if let error = diagnostics.errors.first { throw error }
        return declarations
    }

    static func run(
        _ knobs: ToyAuthBackend.Knobs = .init(), probeFile: String = ToyFlows.probe(), more: [String: String] = [:],
        kinds: [ProbeKind] = ProbeKind.allCases, allowWait: Double = 60,
        vars: [String: JSONValue] = [:]
    ) async throws -> (verdicts: [ProbeVerdict], backend: ToyAuthBackend) {
        let loaded = try files(probeFile: probeFile, more: more)
        let specs = loaded.program
        let declarations = try declarations(loaded)
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
