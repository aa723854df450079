import FlowSpecLanguage
import FlowSpecProbe

/// `flowspec probe --report html=F`: one self-contained page, a table per probed session, BROKEN rows opened
/// with the promise and the evidence. Secrets are masked as on the console; nothing is fetched from the network.
package enum ProbeHTMLReport {
    package static func render(_ verdicts: [ProbeVerdict]) -> String {
        func count(_ s: ProbeVerdict.Status) -> Int { verdicts.filter { $0.status == s }.count }
        var sessions: [String] = []
        for verdict in verdicts where !sessions.contains(verdict.session) { sessions.append(verdict.session) }
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
            <title>flowspec probe: \(count(.broken)) broken</title>
            <style>\(style)</style></head><body>
            <h1>flowspec probe</h1>
            <p class="summary"><span class="held">\(count(.held)) held</span> · <span class="broken">\(count(.broken)) broken</span> · <span class="error">\(count(.error)) errors</span> · \
            <span class="skipped">\(count(.skipped)) skipped</span> · <span class="na">\(count(.notApplicable)) not applicable</span></p>

            """
        for session in sessions {
            html +=
                "<section><h2>\(Markup.escape(session))</h2><table><thead><tr><th>verdict</th><th>probe</th><th>what happened</th></tr></thead><tbody>\n"
            for v in verdicts where v.session == session {
                let label =
                    switch v.status {
                    case .held: "held";
                    case .broken: "BROKEN";
                    case .error: "ERROR";
                    case .skipped: "skipped";
                    case .notApplicable: "n/a"
                    }
                let what = v.kind.rawValue + (v.check.isEmpty ? "" : " · \(v.check)")
                html +=
                    "<tr class=\"\(v.status.rawValue)\"><td class=\"verdict\">\(label)</td><td><code>\(Markup.escape(what))</code></td><td>\(Markup.escape(v.detail))"
                if v.status == .broken {
                    html +=
                        "<details open><summary>promise and evidence</summary><p class=\"promise\">\(Markup.escape(v.source))</p>"
                    for e in v.evidence {
                        let answer = e.status.map(String.init) ?? e.failure ?? "no response"
                        html += "<pre>\(Markup.escape("\(e.method) \(e.url) → \(answer)"))"
                        if let body = e.requestBody { html += "\n" + Markup.escape("request: " + body) }
                        if let body = e.responseBody { html += "\n" + Markup.escape("response: " + body) }
                        html += "</pre>"
                    }
                    html += "</details>"
                }
                html += "</td></tr>\n"
            }
            html += "</tbody></table></section>\n"
        }
        return html + "</body></html>\n"
    }

    static let style = """
        body{margin:24px;font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Arial,sans-serif;color:#111827;background:#f9fafb}\
        h1{font-size:20px;margin:0}h2{font-size:16px;margin:24px 0 8px}.summary{font-weight:600}\
        .held{color:#15803d}.broken,.error{color:#b91c1c}.skipped,.na{color:#6b7280}\
        table{border-collapse:collapse;width:100%;background:#fff}td,th{border:1px solid #e5e7eb;padding:6px 8px;text-align:left;vertical-align:top}\
        tr.broken td.verdict,tr.error td.verdict{color:#b91c1c;font-weight:700}tr.held td.verdict{color:#15803d}tr.skipped td.verdict,tr.not_applicable td.verdict{color:#6b7280}\
        pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;padding:6px;margin:6px 0}.promise{color:#374151;font-style:italic}
        """
}
