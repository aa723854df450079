import FlowSpecLanguage
import FlowSpecProbe

/// `flowspec probe --report junit=F`: one test suite per probed session, one test case per check. BROKEN is a
/// `<failure>` with the promise and the evidence; a check that could not be made is an `<error>` with its cause;
/// skipped and not applicable are `<skipped>` with the reason.
package enum ProbeJUnitReport {
    package static func render(_ verdicts: [ProbeVerdict]) -> String {
        var sessions: [String] = []
        for verdict in verdicts where !sessions.contains(verdict.session) { sessions.append(verdict.session) }
        let broken = verdicts.filter { $0.status == .broken }.count
        let skipped = verdicts.filter { $0.status == .skipped || $0.status == .notApplicable }.count
        let errors = verdicts.filter { $0.status == .error }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"flowspec probe\" tests=\"\(verdicts.count)\" failures=\"\(broken)\" errors=\"\(errors)\" skipped=\"\(skipped)\">\n"
        for session in sessions {
            let mine = verdicts.filter { $0.session == session }
            xml +=
                "  <testsuite name=\"\(Markup.attribute("probe " + session))\" tests=\"\(mine.count)\" "
                + "failures=\"\(mine.filter { $0.status == .broken }.count)\" errors=\"\(mine.filter { $0.status == .error }.count)\" "
                + "skipped=\"\(mine.filter { $0.status == .skipped || $0.status == .notApplicable }.count)\">\n"
            for verdict in mine {
                let name = verdict.kind.rawValue + (verdict.check.isEmpty ? "" : " · \(verdict.check)")
                xml += "    <testcase classname=\"\(Markup.attribute(session))\" name=\"\(Markup.attribute(name))\""
                switch verdict.status {
                case .held:
                    xml += "/>\n"
                case .broken:
                    var body = verdict.detail + "\npromise: " + verdict.source
                    for e in verdict.evidence {
                        body +=
                            "\n\(e.method) \(e.url) → \(e.status.map(String.init) ?? e.failure ?? "no response")"
                            + (e.responseBody.map { " " + $0 } ?? "")
                    }
                    xml +=
                        ">\n      <failure message=\"\(Markup.attribute(verdict.detail))\">\(Markup.escape(body))</failure>\n    </testcase>\n"
                case .error:
                    xml +=
                        ">\n      <error message=\"\(Markup.attribute(verdict.detail))\">\(Markup.escape(verdict.detail))</error>\n    </testcase>\n"
                case .skipped, .notApplicable:
                    let reason = (verdict.status == .notApplicable ? "not applicable: " : "") + verdict.detail
                    xml += ">\n      <skipped message=\"\(Markup.attribute(reason))\"/>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }
}
