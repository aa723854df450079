import FlowSpecLanguage
import FlowSpecProbe

/// `flowspec probe --report tap[=F]`: TAP version 13, one line per check; BROKEN is `not ok` with the promise
/// and the evidence in a YAML block; a check that could not be made is `not ok` with its cause (severity
/// `error`); skipped and n/a are `ok … # SKIP reason`.
package enum ProbeTAPReport {
    package static func render(_ verdicts: [ProbeVerdict]) -> String {
        var lines = ["TAP version 13", "1..\(verdicts.count)"]
        for (index, verdict) in verdicts.enumerated() {
            let number = index + 1
            let name = TAPReport.description(
                "\(verdict.session) \(verdict.kind.rawValue)" + (verdict.check.isEmpty ? "" : " · \(verdict.check)"))
            switch verdict.status {
            case .held:
                lines.append("ok \(number) - \(name)")
            case .skipped, .notApplicable:
                let reason = (verdict.status == .notApplicable ? "not applicable: " : "") + verdict.detail
                lines.append("ok \(number) - \(name) # SKIP \(TAPReport.directiveText(reason))")
            case .error:
                lines += [
                    "not ok \(number) - \(name)", "  ---", "  message: " + YAMLWriter.quoted(verdict.detail),
                    "  severity: error", "  ...",
                ]
            case .broken:
                lines.append("not ok \(number) - \(name)")
                lines += [
                    "  ---", "  message: " + YAMLWriter.quoted(verdict.detail), "  severity: fail",
                    "  promise: " + YAMLWriter.quoted(verdict.source),
                ]
                if !verdict.evidence.isEmpty {
                    lines.append("  evidence:")
                    for e in verdict.evidence {
                        let line =
                            "\(e.method) \(e.url) → \(e.status.map(String.init) ?? e.failure ?? "no response")"
                            + (e.responseBody.map { " " + $0 } ?? "")
                        lines.append("    - " + YAMLWriter.quoted(line))
                    }
                }
                lines.append("  ...")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
