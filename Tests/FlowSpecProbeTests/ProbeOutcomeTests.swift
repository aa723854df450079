import Testing

@testable import FlowSpecProbe

/// Every kind of the catalogue, on the toy backend, in each of its four outcomes (ToyCases): held on a faithful
/// backend; BROKEN where a knob breaks the promise, with the evidence; an ERROR — never held — where a knob makes
/// the control fail too; n/a where it does not apply or is not declared. A kind added to the catalogue without
/// its cases fails here.
@Suite(.timeLimit(.minutes(5))) struct ProbeOutcomeTests {
    @Test(arguments: ProbeKind.allCases, ToyCases.Outcome.allCases)
    func everyKindShowsEachOutcome(_ kind: ProbeKind, _ outcome: ToyCases.Outcome) async throws {
        let cases = ToyCases.of(kind)?[outcome] ?? []
        guard !cases.isEmpty else {
            Issue.record("no toy case shows `\(kind)` \(outcome.rawValue): add one to ToyCases")
            return
        }
        let secrets = ToyAuthBackend.accounts.values.map(\.password)
        for c in cases {
            let all = try await ToyProbe.run(
                c.knobs, probeFile: c.file, more: c.more, kinds: [kind], allowWait: c.allowWait, vars: c.vars
            ).verdicts
            let found = all.of(kind, c.check)
            #expect(
                !found.isEmpty, "\(kind), \(c.name): no verdict\(c.check.map { " `\($0)`" } ?? ""):\n\(all.described)")
            for verdict in found {
                #expect(
                    verdict.status == c.status && verdict.detail.contains(c.detail),
                    "\(kind), \(c.name): expected \(c.status.rawValue) saying “\(c.detail)”:\n\(all.described)")
                if let source = c.source {
                    #expect(verdict.source.contains(source), "\(kind), \(c.name): source \(verdict.source)")
                }
                if verdict.status == .broken {
                    #expect(!verdict.evidence.isEmpty, "\(kind), \(c.name): a BROKEN verdict shows its exchanges")
                }
                if verdict.status == .error {
                    #expect(
                        verdict.detail.hasPrefix("not checked"),
                        "\(kind), \(c.name): an ERROR says what was not checked")
                }
                let shown = verdict.detail + String(describing: verdict.evidence)
                #expect(
                    !secrets.contains { shown.contains($0) } && shown.firstMatch(of: /refresh-[0-9]|eyJ/) == nil,
                    "\(kind), \(c.name): a secret is shown: \(shown)")
            }
        }
    }
}
